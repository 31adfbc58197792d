/* komi-provider-form.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* The provider dialog's fields judged by the profile parser, every field
 * at once: each field the parser refuses is set aside and the rest judged
 * again. @fields names the profile member of each of @n rows; @problems
 * (@n of them, NULL on entry) gets what is wrong with each, in a user's
 * words (never a member's name); @other, an error that is about no row
 * (a member of a hand-written file the dialog keeps), in the parser's
 * words. Returns TRUE when @object is a valid profile. */
gboolean komi_provider_form_check (JsonObject        *object,
                                   const char *const *fields,
                                   guint              n,
                                   char             **problems,
                                   char             **other);

/* A profile's file name for @name: letters, digits, - and _, the rest
 * as "-", and ".json". */
char    *komi_provider_form_file_name     (const char        *name);
/* A GTask thread function: writes task data { path, contents, "replace"
 * or NULL } (0600, whole or not at all); a file already at the path is
 * kept unless "replace" is given. */
void     komi_provider_form_write_thread  (GTask             *task,
                                           gpointer           source,
                                           gpointer           task_data,
                                           GCancellable      *cancellable);

G_END_DECLS
