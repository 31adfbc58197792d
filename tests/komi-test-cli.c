/* komi-test-cli.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "komi-test-cli.h"

int
run_komi_cli_argv (const char *language, const char * const *args, char **out, char **err)
{
  g_autofree char *cli = g_build_filename (g_getenv ("KOMI_BUILD_DIR"), "src", "cli",
                                           "komi-cli", NULL);
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GSubprocess) proc = NULL;
  g_autoptr(GError) error = NULL;

  g_ptr_array_add (argv, cli);
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (char *) args[i]);
  g_ptr_array_add (argv, NULL);
  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE
                                        | G_SUBPROCESS_FLAGS_STDERR_PIPE);
  if (language != NULL)
    g_subprocess_launcher_setenv (launcher, "LANGUAGE", language, TRUE);
  else
    g_subprocess_launcher_unsetenv (launcher, "LANGUAGE");
  proc = g_subprocess_launcher_spawnv (launcher, (const char * const *) argv->pdata, &error);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (proc, NULL, NULL, out, err, &error);
  g_assert_no_error (error);
  return g_subprocess_get_if_exited (proc) ? g_subprocess_get_exit_status (proc) : -1;
}

int
run_komi_cli_language_va (const char *language, char **out, char **err, va_list ap)
{
  g_autoptr(GPtrArray) args = g_ptr_array_new ();
  const char *arg;

  while ((arg = va_arg (ap, const char *)) != NULL)
    g_ptr_array_add (args, (char *) arg);
  g_ptr_array_add (args, NULL);
  return run_komi_cli_argv (language, (const char * const *) args->pdata, out, err);
}

int
run_komi_cli_va (char **out, char **err, va_list ap)
{
  return run_komi_cli_language_va (g_getenv ("LANGUAGE"), out, err, ap);
}

int
run_komi_cli (char **out, char **err, ...)
{
  va_list ap;
  int status;

  va_start (ap, err);
  status = run_komi_cli_va (out, err, ap);
  va_end (ap);
  return status;
}

void
komi_cli_run_clear (KomiCliRun *run)
{
  g_free (run->out);
  g_free (run->err);
}

void
remove_test_dir (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      /* An export's sgf/ folder, a shard's out/… */
      if (g_file_test (child, G_FILE_TEST_IS_DIR))
        remove_test_dir (child);
      else
        g_remove (child);
    }
  g_rmdir (path);
}

static GSubprocess *
test_cli_start_va (GSubprocessFlags flags, va_list ap)
{
  g_autofree char *cli = g_build_filename (g_getenv ("KOMI_BUILD_DIR"), "src", "cli",
                                           "komi-cli", NULL);
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  GSubprocess *proc;
  const char *arg;

  g_ptr_array_add (argv, cli);
  while ((arg = va_arg (ap, const char *)) != NULL)
    g_ptr_array_add (argv, (char *) arg);
  g_ptr_array_add (argv, NULL);
  proc = g_subprocess_newv ((const char * const *) argv->pdata, flags, &error);
  g_assert_no_error (error);
  return proc;
}

GSubprocess *
test_cli_start (GSubprocessFlags flags, ...)
{
  GSubprocess *proc;
  va_list ap;

  va_start (ap, flags);
  proc = test_cli_start_va (flags, ap);
  va_end (ap);
  return proc;
}

void
test_cli_run_ok (GSubprocessFlags flags, ...)
{
  g_autoptr(GSubprocess) proc = NULL;
  va_list ap;

  va_start (ap, flags);
  proc = test_cli_start_va (flags, ap);
  va_end (ap);
  test_cli_wait_ok (proc);
}

void
test_cli_wait_ok (GSubprocess *proc)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *err = NULL;

  g_subprocess_communicate_utf8 (proc, NULL, NULL, NULL, &err, &error);
  g_assert_no_error (error);
  if (!g_subprocess_get_successful (proc))
    g_error ("komi-cli failed: %s", err);
}
