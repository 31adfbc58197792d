/* komi-publish-pages.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-publish"

#include "config.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include <glib/gstdio.h>

#include "komi-player-spec.h"
#include "komi-provider.h"
#include "komi-publish-private.h"

/* What every page shares (escaping, the frame, how players and results
 * read), the file writer that skips unchanged files, and the series page. */

gboolean
_komi_publish_write (KomiPublishOut *out,
                     const char     *relpath,
                     const char     *data,
                     gsize           length,
                     GError        **error)
{
  g_autofree char *path = g_build_filename (out->dir, relpath, NULL);
  g_autofree char *folder = g_path_get_dirname (path);
  g_autofree char *old = NULL;
  gsize old_length = 0;
  g_autoptr(GError) local = NULL;

  out->stats->bytes += length;
  /* The manifest's line for it, made here where the bytes are (several
   * workers hash at once, and nothing is read back). */
  if (out->digests != NULL)
    g_hash_table_replace (out->digests, g_strdup (relpath),
                          g_compute_checksum_for_data (G_CHECKSUM_SHA256, (const guchar *) data,
                                                       length));
  if (g_file_get_contents (path, &old, &old_length, NULL) && old_length == length
      && memcmp (old, data, length) == 0)
    {
      out->stats->unchanged++;
      return TRUE;
    }
  if (g_mkdir_with_parents (folder, 0755) != 0)
    {
      int saved = errno;

      g_set_error (error, KOMI_PUBLISH_ERROR, KOMI_PUBLISH_ERROR_WRITE,
                   _("cannot create the folder %s: %s"), folder, g_strerror (saved));
      return FALSE;
    }
  /* A page that is replaced is replaced atomically (a host never serves
   * half of it); a new one is not synced, or 30,000 files would take
   * minutes. */
  if (!g_file_set_contents_full (path, data, (gssize) length,
                                 G_FILE_SET_CONTENTS_CONSISTENT
                                 | G_FILE_SET_CONTENTS_ONLY_EXISTING, 0644, &local))
    {
      g_set_error (error, KOMI_PUBLISH_ERROR, KOMI_PUBLISH_ERROR_WRITE, "%s", local->message);
      return FALSE;
    }
  out->stats->written++;
  return TRUE;
}

void
_komi_html_append (GString    *s,
                   const char *text)
{
  for (const char *p = text ? text : ""; *p != '\0'; p++)
    switch (*p)
      {
      case '&': g_string_append (s, "&amp;"); break;
      case '<': g_string_append (s, "&lt;"); break;
      case '>': g_string_append (s, "&gt;"); break;
      case '"': g_string_append (s, "&quot;"); break;
      case '\'': g_string_append (s, "&#39;"); break;
      default: g_string_append_c (s, *p);
      }
}

/* Formats, then escapes the whole: arguments are text, never markup. */
void
_komi_html_append_printf (GString    *s,
                          const char *format,
                          ...)
{
  g_autofree char *text = NULL;
  va_list ap;

  va_start (ap, format);
  text = g_strdup_vprintf (format, ap);
  va_end (ap);
  _komi_html_append (s, text);
}

void
_komi_publish_page_start (GString    *s,
                          const char *title,
                          const char *root)
{
  g_string_append (s, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
                      "<meta name=\"color-scheme\" content=\"light dark\">\n<title>");
  _komi_html_append (s, title);
  g_string_append_printf (s, " · Komi</title>\n<link rel=\"stylesheet\" href=\"%sassets/komi.css\">\n"
                             "</head>\n<body>\n<header class=\"site\"><nav aria-label=\"Site\">"
                             "<a href=\"%sindex.html\">Komi leaderboard</a> "
                             "<a href=\"%smethodology.html\">Methodology</a></nav></header>\n"
                             "<main>\n", root, root, root);
}

void
_komi_publish_page_end (GString *s)
{
  g_string_append (s, "</main>\n</body>\n</html>\n");
}

/* A reported name keeps what tells the player apart from its kin: GNU Go's
 * level, KataGo's visits ("GNU Go 3.8 level 3", "KataGo 1.17.2, 64
 * visits"), and for a mix its engine's. */
static char *
name_with_strength (const char *name, const char *spec)
{
  const KomiPlayerKind *kind;
  const char *argument = NULL;
  const char *colon;

  if (spec == NULL)
    return g_strdup (name);
  kind = komi_player_kind_find (spec, &argument);
  if (kind != NULL && kind->id == KOMI_PLAYER_KIND_MIX && argument != NULL
      && (colon = strchr (argument, ':')) != NULL)
    kind = komi_player_kind_find (colon + 1, &argument);
  /* English, as the site is: the absent argument the table's default. */
  if (kind != NULL && kind->id == KOMI_PLAYER_KIND_GNUGO)
    return g_strdup_printf ("%s level %s", name, argument);
  if (kind != NULL && kind->id == KOMI_PLAYER_KIND_KATAGO)
    return g_strdup_printf ("%s, %s %s", name, argument,
                            strcmp (argument, "1") == 0 ? "visit" : "visits");
  return g_strdup (name);
}

char *
_komi_publish_player_label (const char *spec,
                            const char *name)
{
  g_autoptr(KomiPublic) pub = komi_public_new (0);

  if (name != NULL && *name != '\0')
    {
      g_autofree char *shown = komi_public_text (pub, name);

      return name_with_strength (shown, spec);
    }
  if (spec == NULL)
    return g_strdup ("?");
  return komi_public_text (pub, spec);
}

char *
_komi_publish_result_text (const KomiStoreGame *game)
{
  switch (game->status)
    {
    case KOMI_GAME_STATUS_VOID:
      return g_strdup ("void");
    case KOMI_GAME_STATUS_FORFEIT:
      return g_strdup_printf ("forfeit (%s)", game->result ? game->result : "?");
    case KOMI_GAME_STATUS_PENDING:
      return g_strdup ("not played");
    case KOMI_GAME_STATUS_RUNNING:
      return g_strdup ("unfinished");
    default:
      /* The protocol asks for turn-limit games to be marked as such. */
      if (game->end_reason == KOMI_END_TURN_LIMIT)
        return g_strdup_printf ("%s (turn limit)", game->result ? game->result : "?");
      return g_strdup (game->result ? game->result : "?");
    }
}

char *
_komi_publish_game_path (gint64 game_id)
{
  return g_strdup_printf ("games/game-%" G_GINT64_FORMAT ".html", game_id);
}

static void
append_summary (GString *s, GArray *summary)
{
  g_string_append (s, "<div class=\"table-wrap\"><table class=\"results\">\n<caption>Results per opponent and colour "
                      "(the subject's wins, losses and draws of counted games)</caption>\n"
                      "<thead><tr><th scope=\"col\">Opponent</th><th scope=\"col\">Subject plays"
                      "</th><th scope=\"col\">Games</th><th scope=\"col\">Wins</th>"
                      "<th scope=\"col\">Losses</th><th scope=\"col\">Draws</th>"
                      "<th scope=\"col\">Mean margin</th><th scope=\"col\">Turn limit</th>"
                      "<th scope=\"col\">Forfeits</th><th scope=\"col\">Voids</th>"
                      "<th scope=\"col\">Unfinished</th></tr></thead>\n<tbody>\n");
  for (guint i = 0; i < summary->len; i++)
    {
      const KomiStoreSummary *r = &g_array_index (summary, KomiStoreSummary, i);
      g_autofree char *opponent = _komi_publish_player_label (r->opponent_spec, NULL);

      g_string_append (s, "<tr><th scope=\"row\">");
      _komi_html_append (s, opponent);
      g_string_append_printf (s, "</th><td>%s</td><td>%u</td><td>%u</td><td>%u</td><td>%u</td>",
                              r->subject == KOMI_BLACK ? "Black" : "White", r->games, r->wins,
                              r->losses, r->draws);
      if (isnan (r->mean_margin))
        g_string_append (s, "<td>–</td>");
      else
        g_string_append_printf (s, "<td>%+.1f</td>", r->mean_margin);
      g_string_append_printf (s, "<td>%u</td><td>%u</td><td>%u</td><td>%u</td></tr>\n",
                              r->turn_limit, r->forfeits, r->voids, r->unfinished);
    }
  g_string_append (s, "</tbody>\n</table></div>\n");
}

static void
append_game_row (GString *s, const KomiStoreGame *g)
{
  g_autofree char *black = _komi_publish_player_label (g->black_spec, g->black_name);
  g_autofree char *white = _komi_publish_player_label (g->white_spec, g->white_name);
  g_autofree char *result = _komi_publish_result_text (g);
  g_autofree char *path = _komi_publish_game_path (g->id);
  gboolean shown = g->status != KOMI_GAME_STATUS_PENDING;

  g_string_append_printf (s, "<tr%s><td>%d</td><td>",
                          g->status == KOMI_GAME_STATUS_FINISHED
                          && g->end_reason == KOMI_END_TURN_LIMIT ? " class=\"turn-limit\"" : "",
                          g->plan_index + 1);
  _komi_html_append (s, black);
  g_string_append (s, "</td><td>");
  _komi_html_append (s, white);
  g_string_append (s, "</td><td>");
  _komi_html_append (s, result);
  g_string_append_printf (s, "</td><td>%u</td><td>%u</td><td>%s</td><td>",
                          g->n_moves, g->n_calls, komi_orientation_to_string (g->orientation));
  if (isnan (g->cost_usd))
    g_string_append (s, "–");
  else
    {
      g_autofree char *cost = komi_cost_text (g->cost_usd);

      _komi_html_append (s, cost);
    }
  g_string_append (s, "</td><td>");
  if (shown)
    g_string_append_printf (s, "<a href=\"%s\">Replay game %" G_GINT64_FORMAT "</a>", path,
                            g->id);
  else
    g_string_append (s, "–");
  g_string_append (s, "</td></tr>\n");
}

gboolean
_komi_publish_series_page (KomiPublishOut        *out,
                           KomiStore             *store,
                           const KomiStoreSeries *series,
                           GPtrArray             *games,
                           GError               **error)
{
  g_autoptr(GString) s = g_string_sized_new (4096 + games->len * 300);
  g_autoptr(GArray) summary = komi_store_summarize (store, series->id, error);
  g_autofree char *title = NULL;
  g_autofree char *subject = NULL;
  g_autofree char *referee = NULL;
  g_autofree char *file = g_strdup_printf ("series-%" G_GINT64_FORMAT ".html", series->id);

  if (summary == NULL)
    return FALSE;
  subject = _komi_publish_player_label (series->subject, NULL);
  {
    g_autofree char *name = komi_public_text (out->pub, series->name);

    title = g_strdup_printf ("Series %" G_GINT64_FORMAT ": %s", series->id, name);
  }
  _komi_publish_page_start (s, title, "");
  g_string_append (s, "<h1>");
  _komi_html_append (s, title);
  g_string_append (s, "</h1>\n<dl class=\"facts\"><dt>Subject</dt><dd>");
  _komi_html_append (s, subject);
  g_string_append_printf (s, "</dd><dt>Protocol</dt><dd><a href=\"protocol-%u-rules.txt\">"
                             "Protocol %u</a></dd><dt>Seed</dt><dd>%" G_GUINT64_FORMAT
                             "</dd><dt>Referee</dt><dd>", series->protocol, series->protocol,
                          series->seed);
  referee = komi_public_text (out->pub, series->referee ? series->referee : "none");
  _komi_html_append (s, referee);
  g_string_append_printf (s, "</dd><dt>Games</dt><dd>%u (%u finished, %u void, %u forfeit, "
                             "%u unfinished)</dd><dt>Definition digest</dt><dd><code>",
                          series->n_games, series->n_finished, series->n_void,
                          series->n_forfeit, series->n_unfinished);
  _komi_html_append (s, series->digest);
  g_string_append (s, "</code></dd></dl>\n");
  append_summary (s, summary);

  g_string_append (s, "<div class=\"table-wrap\"><table class=\"games\">\n<caption>Games</caption>\n<thead><tr>"
                      "<th scope=\"col\">#</th><th scope=\"col\">Black</th>"
                      "<th scope=\"col\">White</th><th scope=\"col\">Result</th>"
                      "<th scope=\"col\">Moves</th><th scope=\"col\">Calls</th>"
                      "<th scope=\"col\">Orientation</th><th scope=\"col\">Cost</th>"
                      "<th scope=\"col\">Replay</th></tr></thead>\n<tbody>\n");
  for (guint i = 0; i < games->len; i++)
    append_game_row (s, g_ptr_array_index (games, i));
  g_string_append (s, "</tbody>\n</table></div>\n");
  _komi_publish_page_end (s);
  return _komi_publish_write (out, file, s->str, s->len, error);
}
