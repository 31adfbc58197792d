/* test-gtp-process.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "test-gtp-process"

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include <gio/gio.h>
#include <glib/gstdio.h>

#include "komi-gtp-process.h"

/* The child processes behind every engine: what reaches them, what they
 * are spared, and that each one is reaped however it ends. */

/* Everything the child writes to its stdout, up to its end. */
static char *
read_to_end (KomiGtpProcess *process)
{
  GString *out = g_string_new (NULL);
  char buf[512];
  gssize n;

  while ((n = read (komi_gtp_process_get_stdout_fd (process), buf, sizeof buf)) != 0)
    {
      if (n < 0 && errno == EINTR)
        continue;
      g_assert_cmpint (n, >, 0);
      g_string_append_len (out, buf, n);
    }
  return g_string_free (out, FALSE);
}

/* @argv started, its stderr into @stderr_path (created, truncated) if
 * that is not NULL. */
static KomiGtpProcess *
spawn (const char * const *argv,
       const char         *stderr_path)
{
  g_autoptr(GError) error = NULL;
  int fd = stderr_path != NULL ? g_open (stderr_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
                                         0600)
                               : -1;
  KomiGtpProcess *process;

  g_assert_true (stderr_path == NULL || fd >= 0);
  process = komi_gtp_process_spawn (argv, fd, &error);
  if (fd >= 0)
    g_close (fd, NULL);

  g_assert_no_error (error);
  g_assert_nonnull (process);
  g_assert_cmpint (komi_gtp_process_get_pid (process), >, 0);
  return process;
}

/* A line in, a line out, a message on stderr and a status at the end. */
static void
test_stdio_and_status (void)
{
  const char *argv[] = { "/bin/sh", "-c",
                         "read line; echo \"got $line\"; echo oops >&2; exit 3", NULL };
  g_autofree char *dir = g_dir_make_tmp ("komi-process-XXXXXX", NULL);
  g_autofree char *err_path = g_build_filename (dir, "stderr", NULL);
  g_autoptr(KomiGtpProcess) process = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autofree char *how = NULL;

  process = spawn (argv, err_path);
  g_assert_cmpint (write (komi_gtp_process_get_stdin_fd (process), "hello\n", 6), ==, 6);
  out = read_to_end (process);
  g_assert_cmpstr (out, ==, "got hello\n");

  g_assert_true (komi_gtp_process_wait (process, 10000));
  g_assert_cmpint (komi_gtp_process_get_pid (process), ==, 0);
  how = komi_gtp_process_describe_exit (process);
  g_assert_cmpstr (how, ==, "exited with status 3");
  g_assert_true (g_file_get_contents (err_path, &err, NULL, NULL));
  g_assert_cmpstr (err, ==, "oops\n");

  g_unlink (err_path);
  g_rmdir (dir);
}

/* Closing stdin is how an engine is asked to end when "quit" failed. */
static void
test_end_of_input (void)
{
  const char *argv[] = { "cat", NULL };
  g_autoptr(KomiGtpProcess) process = spawn (argv, NULL);
  g_autofree char *how = NULL;

  g_assert_null (komi_gtp_process_describe_exit (process));
  komi_gtp_process_close_stdin (process);
  g_assert_cmpint (komi_gtp_process_get_stdin_fd (process), ==, -1);
  g_assert_true (komi_gtp_process_wait (process, 10000));
  how = komi_gtp_process_describe_exit (process);
  g_assert_cmpstr (how, ==, "exited with status 0");
}

/* A process that does not end within the wait is killed and reaped: no
 * zombie, no pid left behind. */
static void
test_wait_then_kill (void)
{
  const char *argv[] = { "sleep", "30", NULL };
  g_autoptr(KomiGtpProcess) process = spawn (argv, NULL);
  GPid pid = komi_gtp_process_get_pid (process);
  g_autofree char *how = NULL;
  gint64 begin = g_get_monotonic_time ();

  g_assert_false (komi_gtp_process_wait (process, 100));
  g_assert_cmpint (g_get_monotonic_time () - begin, >=, 100 * 1000);
  g_assert_cmpint (komi_gtp_process_get_pid (process), ==, pid);

  komi_gtp_process_kill (process);
  g_assert_cmpint (komi_gtp_process_get_pid (process), ==, 0);
  g_assert_cmpint (kill (pid, 0), ==, -1);
  g_assert_cmpint (errno, ==, ESRCH);
  how = komi_gtp_process_describe_exit (process);
  g_assert_nonnull (strstr (how, "killed by signal 9"));
  /* Idempotent once reaped. */
  komi_gtp_process_kill (process);
  g_assert_true (komi_gtp_process_wait (process, 0));
}

/* Freeing a running process leaves nothing behind either. */
static void
test_free_reaps (void)
{
  const char *argv[] = { "sleep", "30", NULL };
  KomiGtpProcess *process = spawn (argv, NULL);
  GPid pid = komi_gtp_process_get_pid (process);

  komi_gtp_process_free (process);
  g_assert_cmpint (kill (pid, 0), ==, -1);
  g_assert_cmpint (errno, ==, ESRCH);
}

static void
test_not_found (void)
{
  const char *missing[] = { "/nonexistent/engine", NULL };
  const char *unknown[] = { "komi-test-no-such-program", NULL };
  g_autoptr(GError) error = NULL;

  g_assert_null (komi_gtp_process_spawn (missing, -1, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_clear_error (&error);
  g_assert_null (komi_gtp_process_spawn (unknown, -1, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
}

/* An engine gets fds 0–2 only, even one we opened without close-on-exec
 * (a library's database stays ours), and SIGPIPE at its default although
 * we ignore it. */
static void
test_what_the_child_gets (void)
{
  const char *argv[] = { "cat", "/proc/self/status", NULL };
  g_autoptr(KomiGtpProcess) process = NULL;
  g_autofree char *status = NULL;
  g_autofree char *probe = NULL;
  struct sigaction old, ignore = { .sa_handler = SIG_IGN };
  const char *line;
  guint64 ignored;
  int fd;

  if (!g_file_test ("/proc/self/status", G_FILE_TEST_EXISTS))
    {
      g_test_skip ("no /proc on this system");
      return;
    }

  sigaction (SIGPIPE, &ignore, &old);
  process = spawn (argv, NULL);
  status = read_to_end (process);
  g_assert_true (komi_gtp_process_wait (process, 10000));
  sigaction (SIGPIPE, &old, NULL);
  line = strstr (status, "SigIgn:");
  g_assert_nonnull (line);
  ignored = g_ascii_strtoull (line + strlen ("SigIgn:"), NULL, 16);
  g_assert_cmpuint (ignored & (G_GUINT64_CONSTANT (1) << (SIGPIPE - 1)), ==, 0);

#if defined (__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 34))
  fd = open ("/dev/null", O_RDONLY);  /* deliberately without O_CLOEXEC */
  g_assert_cmpint (fd, >, 2);
  probe = g_strdup_printf ("test -e /proc/self/fd/%d && echo leaked || echo closed", fd);
  {
    const char *sh[] = { "/bin/sh", "-c", probe, NULL };
    g_autoptr(KomiGtpProcess) child = spawn (sh, NULL);
    g_autofree char *answer = read_to_end (child);

    g_assert_cmpstr (answer, ==, "closed\n");
  }
  close (fd);
#else
  (void) fd;
  (void) probe;
#endif
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/komi/gtp/process/stdio-and-status", test_stdio_and_status);
  g_test_add_func ("/komi/gtp/process/end-of-input", test_end_of_input);
  g_test_add_func ("/komi/gtp/process/wait-then-kill", test_wait_then_kill);
  g_test_add_func ("/komi/gtp/process/free-reaps", test_free_reaps);
  g_test_add_func ("/komi/gtp/process/not-found", test_not_found);
  g_test_add_func ("/komi/gtp/process/what-the-child-gets", test_what_the_child_gets);

  return g_test_run ();
}
