/* komi-gtp-process.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-players"

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gio/gio.h>
#include <glib/gstdio.h>

#include "komi-gtp-process.h"

/* glibc 2.34 can close every other fd in the child; elsewhere only the
 * close-on-exec flag keeps our fds out of engines, and every fd Komi and
 * its libraries open carries it. */
#if defined (__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 34))
# define HAVE_ADDCLOSEFROM 1
#endif

/* Without a pidfd (kernels before 5.3), how often a wait looks again. */
#define WAIT_STEP_US 2000

extern char **environ;

struct _KomiGtpProcess
{
  GPid     pid;          /* 0 once reaped */
  int      in_fd;        /* our end of its stdin, -1 once closed */
  int      out_fd;       /* our end of its stdout */
  int      status;       /* the wait status, once reaped */
  gboolean status_known; /* FALSE if someone else reaped it */
};

/* Moves @fd above the standard fds, so that placing the child's stdin and
 * stdout cannot overwrite one pipe end with another. */
static int
above_stdio (int fd)
{
  int moved;

  if (fd > STDERR_FILENO)
    return fd;
  moved = fcntl (fd, F_DUPFD_CLOEXEC, STDERR_FILENO + 1);
  close (fd);
  return moved;
}

static gboolean
open_pipe (int fds[2], GError **error)
{
  if (pipe2 (fds, O_CLOEXEC) == 0)
    {
      fds[0] = above_stdio (fds[0]);
      fds[1] = above_stdio (fds[1]);
      if (fds[0] >= 0 && fds[1] >= 0)
        return TRUE;
    }
  {
    int saved = errno;

    if (fds[0] >= 0)
      close (fds[0]);
    if (fds[1] >= 0)
      close (fds[1]);
    fds[0] = fds[1] = -1;
    g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved),
                 "Could not create a pipe: %s", g_strerror (saved));
    return FALSE;
  }
}

static void
close_fd (int *fd)
{
  if (*fd >= 0)
    {
      g_close (*fd, NULL);
      *fd = -1;
    }
}

KomiGtpProcess *
komi_gtp_process_spawn (const char * const *argv,
                        int                 stderr_fd,
                        GError            **error)
{
  int in_pipe[2] = { -1, -1 }, out_pipe[2] = { -1, -1 };
  posix_spawn_file_actions_t actions;
  posix_spawnattr_t attr;
  sigset_t mask, defaults;
  KomiGtpProcess *self;
  pid_t pid = 0;
  int rc;

  g_return_val_if_fail (argv != NULL && argv[0] != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!open_pipe (in_pipe, error))
    return NULL;
  if (!open_pipe (out_pipe, error))
    {
      close_fd (&in_pipe[0]);
      close_fd (&in_pipe[1]);
      return NULL;
    }

  posix_spawn_file_actions_init (&actions);
  posix_spawn_file_actions_adddup2 (&actions, in_pipe[0], STDIN_FILENO);
  posix_spawn_file_actions_adddup2 (&actions, out_pipe[1], STDOUT_FILENO);
  if (stderr_fd >= 0)
    posix_spawn_file_actions_adddup2 (&actions, stderr_fd, STDERR_FILENO);
  else
    posix_spawn_file_actions_addopen (&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
#ifdef HAVE_ADDCLOSEFROM
  posix_spawn_file_actions_addclosefrom_np (&actions, STDERR_FILENO + 1);
#endif

  /* The engine starts as from a shell: nothing blocked (a worker thread
   * may block signals), SIGPIPE not ignored (we ignore it for ourselves). */
  posix_spawnattr_init (&attr);
  sigemptyset (&mask);
  posix_spawnattr_setsigmask (&attr, &mask);
  sigemptyset (&defaults);
  sigaddset (&defaults, SIGPIPE);
  posix_spawnattr_setsigdefault (&attr, &defaults);
  posix_spawnattr_setflags (&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);

  /* glibc reports a failed exec here (and reaps that child itself). */
  rc = posix_spawnp (&pid, argv[0], &actions, &attr, (char * const *) argv, environ);

  posix_spawn_file_actions_destroy (&actions);
  posix_spawnattr_destroy (&attr);
  close_fd (&in_pipe[0]);
  close_fd (&out_pipe[1]);
  if (rc != 0)
    {
      close_fd (&in_pipe[1]);
      close_fd (&out_pipe[0]);
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (rc), "%s", g_strerror (rc));
      return NULL;
    }

  self = g_new0 (KomiGtpProcess, 1);
  self->pid = pid;
  self->in_fd = in_pipe[1];
  self->out_fd = out_pipe[0];
  return self;
}

int
komi_gtp_process_get_stdin_fd (KomiGtpProcess *self)
{
  g_return_val_if_fail (self != NULL, -1);
  return self->in_fd;
}

int
komi_gtp_process_get_stdout_fd (KomiGtpProcess *self)
{
  g_return_val_if_fail (self != NULL, -1);
  return self->out_fd;
}

void
komi_gtp_process_close_stdin (KomiGtpProcess *self)
{
  g_return_if_fail (self != NULL);
  close_fd (&self->in_fd);
}

GPid
komi_gtp_process_get_pid (KomiGtpProcess *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->pid;
}

/* One waitpid(); TRUE when the process has been reaped. */
static gboolean
try_reap (KomiGtpProcess *self,
          int             flags)
{
  int status = 0;
  pid_t got;

  if (self->pid == 0)
    return TRUE;
  do
    got = waitpid (self->pid, &status, flags);
  while (got < 0 && errno == EINTR);
  if (got == 0)
    return FALSE;
  /* ECHILD: the process was reaped behind our back (SIGCHLD ignored by
   * the host program); it is gone all the same. */
  self->status_known = got > 0;
  self->status = status;
  self->pid = 0;
  return TRUE;
}

static int
open_pidfd (GPid pid)
{
#ifdef SYS_pidfd_open
  return (int) syscall (SYS_pidfd_open, pid, 0);
#else
  return -1;
#endif
}

gboolean
komi_gtp_process_wait (KomiGtpProcess *self,
                       guint           timeout_ms)
{
  gint64 deadline;
  int pidfd;

  g_return_val_if_fail (self != NULL, TRUE);

  if (try_reap (self, WNOHANG) || timeout_ms == 0)
    return self->pid == 0;

  /* A pidfd becomes readable when the process ends: one poll() for the
   * whole wait, and no SIGCHLD handler of ours. */
  deadline = g_get_monotonic_time () + (gint64) timeout_ms * 1000;
  pidfd = open_pidfd (self->pid);
  for (;;)
    {
      gint64 remaining = deadline - g_get_monotonic_time ();

      if (remaining <= 0)
        break;
      if (pidfd >= 0)
        {
          struct pollfd p = { .fd = pidfd, .events = POLLIN };

          poll (&p, 1, (int) MIN ((remaining + 999) / 1000, G_MAXINT));
        }
      else
        g_usleep (MIN (remaining, WAIT_STEP_US));
      if (try_reap (self, WNOHANG))
        break;
    }
  if (pidfd >= 0)
    close (pidfd);
  return self->pid == 0;
}

void
komi_gtp_process_kill (KomiGtpProcess *self)
{
  g_return_if_fail (self != NULL);

  if (self->pid == 0)
    return;
  /* Not reaped, so the pid is still ours, even if it has already exited. */
  kill (self->pid, SIGKILL);
  try_reap (self, 0);
}

char *
komi_gtp_process_describe_exit (KomiGtpProcess *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  if (self->pid != 0 || !self->status_known)
    return NULL;
  if (WIFSIGNALED (self->status))
    {
      int sig = WTERMSIG (self->status);

      return g_strdup_printf ("was killed by signal %d (%s)", sig, g_strsignal (sig));
    }
  if (WIFEXITED (self->status))
    return g_strdup_printf ("exited with status %d", WEXITSTATUS (self->status));
  return NULL;
}

void
komi_gtp_process_free (KomiGtpProcess *self)
{
  if (self == NULL)
    return;
  close_fd (&self->in_fd);
  komi_gtp_process_kill (self);
  close_fd (&self->out_fd);
  g_free (self);
}
