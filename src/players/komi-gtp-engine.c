/* komi-gtp-engine.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-players"

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include <sys/stat.h>

#include <glib/gstdio.h>

#include "komi-gtp-engine.h"
#include "komi-gtp-process.h"

/* An answer longer than this is not GTP from a 9x9 engine. */
/* The errors below stay English: a game that loses its engine is void, and
 * the message is stored as the reason (a restart in the middle of a game
 * can fail to start the engine, too). */
#define MAX_REPLY_BYTES   (1024 * 1024)
/* How long a dying process may take to exit before it is killed. */
#define EXIT_GRACE_MS     1000
/* Bytes of the engine's stderr quoted in error messages. */
#define STDERR_TAIL_BYTES 400

struct _KomiGtpEngine
{
  KomiGtpProcess *process;
  char           *label;
  char           *name;
  char           *version;
  int             stderr_fd;     /* the engine's stderr, for error messages: a
                                * file already unlinked, so that nothing is
                                * left behind should we be killed */
  int             in_fd;         /* our end of its stdin, -1 once stopped */
  int             out_fd;        /* our end of its stdout */
  GString        *inbuf;         /* bytes read but not yet consumed */
  GCancellable   *cancellable;   /* the last one given, whose fd is kept */
  GPollFD         cancel_fd;
  guint           next_id;
  gboolean        running;
};

static void
ignore_sigpipe_once (void)
{
  static gsize done = 0;

  /* Writing to a dead engine must give EPIPE, not kill us. GLib does the
   * same for sockets; only a default disposition is replaced. */
  if (g_once_init_enter (&done))
    {
      struct sigaction old;

      if (sigaction (SIGPIPE, NULL, &old) == 0 && old.sa_handler == SIG_DFL)
        signal (SIGPIPE, SIG_IGN);
      g_once_init_leave (&done, 1);
    }
}

/* The last line of what the engine wrote to stderr, or NULL. */
static char *
stderr_tail (KomiGtpEngine *self)
{
  char contents[STDERR_TAIL_BYTES + 1];
  struct stat st;
  off_t from;
  ssize_t len;
  char *tail, *line;

  if (self->stderr_fd < 0 || fstat (self->stderr_fd, &st) != 0 || st.st_size == 0)
    return NULL;
  from = st.st_size > STDERR_TAIL_BYTES ? st.st_size - STDERR_TAIL_BYTES : 0;
  do
    len = pread (self->stderr_fd, contents, STDERR_TAIL_BYTES, from);
  while (len < 0 && errno == EINTR);
  if (len <= 0)
    return NULL;
  contents[len] = '\0';

  tail = contents;
  g_strstrip (tail);
  line = strrchr (tail, '\n');
  line = g_strstrip (line != NULL ? line + 1 : tail);
  if (*line == '\0' || !g_utf8_validate (line, -1, NULL))
    return NULL;
  return g_strdup (line);
}

/* Marks the engine stopped: closes our pipe ends and reaps the child. */
static void
stop (KomiGtpEngine *self,
      guint          grace_ms)
{
  if (!self->running)
    return;
  self->running = FALSE;
  komi_gtp_process_close_stdin (self->process);
  self->in_fd = -1;
  /* Afterwards the child has been reaped, whatever it did. */
  if (!komi_gtp_process_wait (self->process, grace_ms))
    komi_gtp_process_kill (self->process);
}

static void
set_died_error (KomiGtpEngine *self,
                const char    *command,
                GError       **error)
{
  g_autofree char *status = NULL;
  g_autofree char *tail = NULL;

  stop (self, EXIT_GRACE_MS);

  status = komi_gtp_process_describe_exit (self->process);
  if (status == NULL)
    status = g_strdup ("closed its output");

  tail = stderr_tail (self);
  g_set_error (error, KOMI_PLAYER_ERROR, KOMI_PLAYER_ERROR_DIED,
               "%s %s while answering “%s”%s%s", self->label, status, command,
               tail != NULL ? "; its last message: " : "", tail != NULL ? tail : "");
}

static gboolean
write_all (KomiGtpEngine *self,
           const char    *text,
           gsize          len,
           const char    *command,
           GError       **error)
{
  while (len > 0)
    {
      gssize n = write (self->in_fd, text, len);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          set_died_error (self, command, error);
          return FALSE;
        }
      text += n;
      len -= (gsize) n;
    }
  return TRUE;
}

/* Takes one complete answer ("…\n\n") off the input buffer, if there is one. */
static char *
take_block (KomiGtpEngine *self)
{
  char *end;
  char *block;
  gsize skip = 0;

  /* Blank lines before an answer are not part of it. */
  while (skip < self->inbuf->len && self->inbuf->str[skip] == '\n')
    skip++;
  if (skip > 0)
    g_string_erase (self->inbuf, 0, skip);

  end = strstr (self->inbuf->str, "\n\n");
  if (end == NULL)
    return NULL;
  block = g_strndup (self->inbuf->str, end - self->inbuf->str);
  g_string_erase (self->inbuf, 0, end - self->inbuf->str + 2);
  return block;
}

static void
release_cancel_fd (KomiGtpEngine *self)
{
  if (self->cancellable == NULL)
    return;
  g_cancellable_release_fd (self->cancellable);
  g_clear_object (&self->cancellable);
}

/* The pollable fd of @cancellable, kept from one command to the next: a
 * game passes the same cancellable to every command, and making its fd
 * anew would cost two system calls a command. */
static gboolean
get_cancel_fd (KomiGtpEngine *self,
               GCancellable  *cancellable,
               GPollFD       *fd)
{
  if (cancellable != self->cancellable)
    {
      release_cancel_fd (self);
      if (cancellable != NULL && g_cancellable_make_pollfd (cancellable, &self->cancel_fd))
        self->cancellable = g_object_ref (cancellable);
    }
  if (self->cancellable == NULL)
    return FALSE;
  *fd = self->cancel_fd;
  return TRUE;
}

/* Reads until one answer is complete, the deadline passes, @cancellable
 * fires or the process ends. Returns the answer block. */
static char *
read_block (KomiGtpEngine *self,
            const char    *command,
            guint          timeout_ms,
            GCancellable  *cancellable,
            GError       **error)
{
  gint64 deadline = g_get_monotonic_time () + (gint64) timeout_ms * 1000;
  GPollFD fds[2];
  guint n_fds = 1;
  char *block = NULL;

  fds[0].fd = self->out_fd;
  fds[0].events = G_IO_IN | G_IO_HUP | G_IO_ERR;
  if (get_cancel_fd (self, cancellable, &fds[1]))
    n_fds = 2;

  while ((block = take_block (self)) == NULL)
    {
      gint64 remaining = deadline - g_get_monotonic_time ();
      char buf[4096];
      gssize n;
      int ready;

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        {
          stop (self, 0);
          break;
        }
      if (remaining <= 0)
        {
          stop (self, 0);
          g_set_error (error, KOMI_PLAYER_ERROR, KOMI_PLAYER_ERROR_TIMEOUT,
                       "%s did not answer “%s” within %.1f s and was stopped",
                       self->label, command, timeout_ms / 1000.0);
          break;
        }

      fds[0].revents = 0;
      if (n_fds == 2)
        fds[1].revents = 0;
      ready = g_poll (fds, n_fds, (int) MIN ((remaining + 999) / 1000, G_MAXINT));
      if (ready < 0 && errno != EINTR)
        {
          g_set_error (error, KOMI_PLAYER_ERROR, KOMI_PLAYER_ERROR_DIED,
                       "Could not wait for %s: %s", self->label, g_strerror (errno));
          stop (self, 0);
          break;
        }
      if (ready <= 0 || fds[0].revents == 0)
        continue;

      n = read (self->out_fd, buf, sizeof buf);
      if (n < 0 && (errno == EINTR || errno == EAGAIN))
        continue;
      if (n <= 0)
        {
          set_died_error (self, command, error);
          break;
        }
      /* GTP allows CR LF; dropping every CR makes both forms one. */
      for (gssize i = 0; i < n; i++)
        if (buf[i] != '\r')
          g_string_append_c (self->inbuf, buf[i]);
      if (self->inbuf->len > MAX_REPLY_BYTES)
        {
          stop (self, 0);
          g_set_error (error, KOMI_PLAYER_ERROR, KOMI_PLAYER_ERROR_PROTOCOL,
                       "%s sent more than %d bytes in answer to “%s”; it was stopped",
                       self->label, MAX_REPLY_BYTES, command);
          break;
        }
    }

  return block;
}

/* Checks one answer block for command number @id. */
static gboolean
parse_block (KomiGtpEngine  *self,
             const char     *block,
             guint           id,
             const char     *command,
             char          **reply,
             GError        **error)
{
  const char *p;
  gboolean success;

  /* "=ID text" or "?ID text"; the id is optional but must be ours. */
  if (block[0] != '=' && block[0] != '?')
    goto not_gtp;
  success = block[0] == '=';
  p = block + 1;
  if (g_ascii_isdigit (*p))
    {
      char *end;
      guint64 got = g_ascii_strtoull (p, &end, 10);

      if (got != id)
        goto not_gtp;
      p = end;
    }
  if (*p != '\0' && !g_ascii_isspace (*p))
    goto not_gtp;

  if (!success)
    {
      g_autofree char *message = g_strstrip (g_strdup (p));
      g_set_error (error, KOMI_PLAYER_ERROR, KOMI_PLAYER_ERROR_GTP,
                   "%s refused “%s”: %s", self->label, command,
                   *message != '\0' ? message : "(no reason given)");
      return FALSE;
    }
  if (reply != NULL)
    *reply = g_strstrip (g_strdup (p));
  return TRUE;

not_gtp:
  {
    g_autofree char *shown = g_utf8_make_valid (block, MIN (strlen (block), 80));
    g_set_error (error, KOMI_PLAYER_ERROR, KOMI_PLAYER_ERROR_PROTOCOL,
                 "%s answered “%s” with something that is not GTP: “%s”",
                 self->label, command, shown);
    return FALSE;
  }
}


gboolean
komi_gtp_engine_send (KomiGtpEngine  *self,
                      const char     *command,
                      char          **reply,
                      guint           timeout_ms,
                      GCancellable   *cancellable,
                      GError        **error)
{
  g_autofree char *line = NULL;
  g_autofree char *block = NULL;
  guint id;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (command != NULL && strchr (command, '\n') == NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!self->running)
    {
      g_set_error (error, KOMI_PLAYER_ERROR, KOMI_PLAYER_ERROR_DIED,
                   "%s is not running (it was stopped or ended earlier)", self->label);
      return FALSE;
    }
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return FALSE;

  id = self->next_id++;
  line = g_strdup_printf ("%u %s\n", id, command);
  if (!write_all (self, line, strlen (line), command, error))
    return FALSE;

  block = read_block (self, command, timeout_ms, cancellable, error);
  if (block == NULL)
    return FALSE;
  return parse_block (self, block, id, command, reply, error);
}

gboolean
komi_gtp_engine_send_many (KomiGtpEngine       *self,
                           const char * const  *commands,
                           guint                n_commands,
                           guint                timeout_ms,
                           GCancellable        *cancellable,
                           GError             **error)
{
  g_autoptr(GString) lines = g_string_new (NULL);
  GError *first = NULL;
  guint first_id;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (n_commands == 0)
    return TRUE;
  if (!self->running)
    {
      g_set_error (error, KOMI_PLAYER_ERROR, KOMI_PLAYER_ERROR_DIED,
                   "%s is not running (it was stopped or ended earlier)", self->label);
      return FALSE;
    }
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return FALSE;

  /* GTP engines read commands one at a time, so a batch written at once
   * is answered in order: one wake-up instead of one per command. The
   * batch is kept well under a pipe's buffer so neither side blocks. */
  g_return_val_if_fail (n_commands <= KOMI_GTP_MAX_BATCH, FALSE);
  first_id = self->next_id;
  for (guint i = 0; i < n_commands; i++)
    {
      g_return_val_if_fail (strchr (commands[i], '\n') == NULL, FALSE);
      g_string_append_printf (lines, "%u %s\n", self->next_id++, commands[i]);
    }
  if (!write_all (self, lines->str, lines->len, commands[0], error))
    return FALSE;

  /* Every answer is read, even after a refusal, so the next command
   * meets a clean stream; the first refusal is the one reported. */
  for (guint i = 0; i < n_commands; i++)
    {
      g_autofree char *block = read_block (self, commands[i], timeout_ms, cancellable,
                                           first == NULL ? &first : NULL);

      if (block == NULL)
        {
          if (first == NULL)
            g_set_error (&first, KOMI_PLAYER_ERROR, KOMI_PLAYER_ERROR_DIED,
                         "%s stopped answering “%s”", self->label, commands[i]);
          break;
        }
      if (first == NULL)
        parse_block (self, block, first_id + i, commands[i], NULL, &first);
    }
  if (first != NULL)
    {
      g_propagate_error (error, first);
      return FALSE;
    }
  return TRUE;
}

KomiGtpEngine *
komi_gtp_engine_new (const char * const *argv,
                     const char         *label,
                     guint               timeout_ms,
                     GCancellable       *cancellable,
                     GError            **error)
{
  g_autoptr(KomiGtpEngine) self = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autofree char *stderr_path = NULL;
  int fd;

  g_return_val_if_fail (argv != NULL && argv[0] != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  ignore_sigpipe_once ();

  self = g_new0 (KomiGtpEngine, 1);
  self->label = g_strdup (label != NULL ? label : argv[0]);
  self->inbuf = g_string_new (NULL);
  self->in_fd = -1;
  self->out_fd = -1;
  self->stderr_fd = -1;
  self->next_id = 1;

  /* A file with no name: whatever ends us, nothing is left in the temp
   * folder. Where the file system cannot make one, a named file unlinked
   * at once. */
#ifdef O_TMPFILE
  fd = g_open (g_get_tmp_dir (), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
#else
  fd = -1;
#endif
  if (fd < 0 && (fd = g_file_open_tmp ("komi-gtp-XXXXXX.stderr", &stderr_path, NULL)) >= 0)
    {
      g_unlink (stderr_path);
      fcntl (fd, F_SETFD, FD_CLOEXEC);
    }
  self->stderr_fd = fd;

  self->process = komi_gtp_process_spawn (argv, self->stderr_fd, &local_error);
  if (self->process == NULL)
    {
      g_set_error (error, KOMI_PLAYER_ERROR,
                   g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND) ?
                   KOMI_PLAYER_ERROR_NOT_FOUND : KOMI_PLAYER_ERROR_START,
                   "Could not start %s (%s): %s", self->label, argv[0], local_error->message);
      return NULL;
    }
  self->running = TRUE;
  /* The process owns the fds; we only borrow them. */
  self->in_fd = komi_gtp_process_get_stdin_fd (self->process);
  self->out_fd = komi_gtp_process_get_stdout_fd (self->process);

  /* "version" is required by GTP 2 but some small programs lack it; a
   * refusal there only leaves the version empty. */
  if (komi_gtp_engine_send (self, "name", &self->name, timeout_ms, cancellable, &local_error) &&
      !komi_gtp_engine_send (self, "version", &self->version, timeout_ms, cancellable,
                             &local_error) &&
      g_error_matches (local_error, KOMI_PLAYER_ERROR, KOMI_PLAYER_ERROR_GTP))
    {
      g_clear_error (&local_error);
      self->version = g_strdup ("");
    }
  if (local_error != NULL)
    {
      if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_propagate_error (error, g_steal_pointer (&local_error));
      else
        g_set_error (error, KOMI_PLAYER_ERROR, KOMI_PLAYER_ERROR_START,
                     "%s (%s) did not start as a GTP engine: %s",
                     self->label, argv[0], local_error->message);
      return NULL;
    }

  return g_steal_pointer (&self);
}

const char *
komi_gtp_engine_get_name (KomiGtpEngine *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->name;
}

const char *
komi_gtp_engine_get_version (KomiGtpEngine *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->version;
}

const char *
komi_gtp_engine_get_label (KomiGtpEngine *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->label;
}

gboolean
komi_gtp_engine_is_running (KomiGtpEngine *self)
{
  g_return_val_if_fail (self != NULL, FALSE);
  return self->running;
}

GPid
komi_gtp_engine_get_pid (KomiGtpEngine *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->process != NULL ? komi_gtp_process_get_pid (self->process) : 0;
}

guint
komi_gtp_engine_get_n_commands (KomiGtpEngine *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->next_id - 1;
}

void
komi_gtp_engine_close (KomiGtpEngine *self,
                       guint          grace_ms)
{
  g_return_if_fail (self != NULL);

  if (!self->running)
    return;
  /* A polite "quit" first; whatever it answers, stop() then closes stdin,
   * waits for the exit and kills after the grace period. */
  if (grace_ms > 0)
    komi_gtp_engine_send (self, "quit", NULL, grace_ms, NULL, NULL);
  stop (self, grace_ms);
}

void
komi_gtp_engine_free (KomiGtpEngine *self)
{
  if (self == NULL)
    return;

  komi_gtp_engine_close (self, EXIT_GRACE_MS);
  g_clear_pointer (&self->process, komi_gtp_process_free);
  release_cancel_fd (self);
  if (self->stderr_fd >= 0)
    g_close (self->stderr_fd, NULL);
  g_free (self->label);
  g_free (self->name);
  g_free (self->version);
  g_string_free (self->inbuf, TRUE);
  g_free (self);
}
