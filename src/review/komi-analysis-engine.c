/* komi-analysis-engine.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-review"

#include "config.h"

#include <math.h>
#include <string.h>
#include <glib/gi18n-lib.h>

#include <json-glib/json-glib.h>

#include "komi-analysis-engine.h"
#include "komi-coords.h"
#include "komi-quark.h"

KOMI_DEFINE_QUARK (komi-review-error-quark, komi_review_error)

/* How each engine is asked, and why.
 *
 * GNU Go has no search value, only scoring commands. Measured on a 60-move
 * 9x9 game (level 10 unless said): `estimate_score` takes 0.1–0.8 s but
 * ignores who is to play, so consecutive positions swing by 10–25 points
 * (B+22.9, W+4.2, B+13.0) and every move would look like a blunder;
 * `experimental_score COLOR` adds the best move's value and gives -68 on
 * the empty board; `final_score` plays the position out with GNU Go's own
 * moves from the side to move (seeded, so it repeats) and counts: steady
 * from the middle game on (B+6 for ten moves in a row), noisy in the first
 * few moves, 1–30 s a position at level 10 and about 0.7 s at level 5 (a
 * whole 58-move game: 295 s against 39 s, and level 10's play-outs were
 * no steadier: they called 8 moves blunders where level 5 called 3). So
 * GNU Go's lead is `final_score`, its best move `reg_genmove` (which does
 * not play it), and everything it says is shown as "GNU Go estimate".
 *
 * KataGo: `kata-analyze` streams until the next command arrives, so it has
 * no end a synchronous GTP client can wait for; `kata-search_analyze`
 * (KataGo's GTP_Extensions.md) searches like genmove under maxVisits,
 * prints its analysis once at the end, then "play MOVE" and the usual
 * blank line, and does not play the move. `rootInfo true` adds the root's
 * scoreLead, smoother than the best move's. Older KataGo without it gets
 * `kata-genmove_analyze` and an `undo`. Values are from the side to move's
 * view, which -override-config reportAnalysisWinratesAs=SIDETOMOVE makes
 * sure of whatever the user's config says. */

#define GNUGO_LABEL  "GNU Go estimate"
#define KATAGO_LABEL "KataGo"

struct _KomiAnalysisEngine
{
  KomiGtpRecipe *recipe;
  KomiGtpEngine *gtp;
  gboolean       no_search_analyze;   /* KataGo older than kata-search_analyze */
};

gboolean
komi_analysis_parse_gnugo_score (const char *text,
                                 double     *black_lead)
{
  char *end;
  double value;

  g_return_val_if_fail (text != NULL && black_lead != NULL, FALSE);

  if (strcmp (text, "0") == 0)
    {
      *black_lead = 0;
      return TRUE;
    }
  if ((text[0] != 'B' && text[0] != 'W') || text[1] != '+')
    return FALSE;
  value = g_ascii_strtod (text + 2, &end);
  if (end == text + 2 || !isfinite (value))
    return FALSE;
  *black_lead = text[0] == 'B' ? value : -value;
  return TRUE;
}

static gboolean
is_top_level (const char *token)
{
  return strcmp (token, "info") == 0 || strcmp (token, "rootInfo") == 0
         || strcmp (token, "ownership") == 0 || strcmp (token, "ownershipStdev") == 0
         || strcmp (token, "play") == 0;
}

gboolean
komi_analysis_parse_katago (const char *text,
                            guint       size,
                            double     *lead,
                            KomiPoint  *best)
{
  g_auto(GStrv) tokens = NULL;
  double root_lead = NAN, first_lead = NAN;
  gboolean have_move = FALSE;
  const char *section = "";
  gboolean first_info = FALSE;

  g_return_val_if_fail (text != NULL && lead != NULL && best != NULL, FALSE);

  /* Fields may come in any order and new ones may appear (the docs ask
   * consumers to be robust to both), so this is a walk over key-value
   * pairs inside each top-level section. The last section of each kind
   * wins: with an interval, later reports supersede earlier ones. */
  tokens = g_strsplit_set (text, " \t\n", -1);
  for (guint i = 0; tokens[i] != NULL; i++)
    {
      const char *t = tokens[i];

      if (*t == '\0')
        continue;
      if (is_top_level (t))
        {
          section = t;
          if (strcmp (t, "info") == 0)
            first_info = FALSE;
          if (strcmp (t, "play") == 0 && tokens[i + 1] != NULL)
            {
              const char *move = tokens[++i];

              if (g_ascii_strcasecmp (move, "resign") == 0)
                *best = KOMI_NO_POINT;
              else if (!komi_point_from_name (size, move, best))
                return FALSE;
              have_move = TRUE;
            }
          continue;
        }
      if (tokens[i + 1] == NULL)
        break;
      if (strcmp (section, "info") == 0 && strcmp (t, "order") == 0)
        first_info = strcmp (tokens[i + 1], "0") == 0;
      if (strcmp (t, "scoreLead") == 0)
        {
          double v = g_ascii_strtod (tokens[i + 1], NULL);

          if (strcmp (section, "rootInfo") == 0)
            root_lead = v;
          else if (strcmp (section, "info") == 0 && (first_info || isnan (first_lead)))
            first_lead = v;
        }
      /* "pv" runs to the end of its section: its moves are not keys. */
      if (strcmp (t, "pv") == 0)
        while (tokens[i + 1] != NULL && !is_top_level (tokens[i + 1]))
          i++;
      else
        i++;
    }
  *lead = !isnan (root_lead) ? root_lead : first_lead;
  return have_move && isfinite (*lead);
}

static char **
analysis_argv (const KomiGtpRecipe *recipe)
{
  char **argv = komi_gtp_recipe_build_argv (recipe, 0);

  if (recipe->flavor == KOMI_GTP_KATAGO)
    for (guint i = 0; argv[i] != NULL; i++)
      if (strcmp (argv[i], "-override-config") == 0 && argv[i + 1] != NULL)
        {
          char *more = g_strconcat (argv[i + 1], ",reportAnalysisWinratesAs=SIDETOMOVE", NULL);

          g_free (argv[i + 1]);
          argv[i + 1] = more;
          break;
        }
  return argv;
}

KomiAnalysisEngine *
komi_analysis_engine_new (const KomiGtpRecipe *recipe,
                          GCancellable        *cancellable,
                          GError             **error)
{
  g_autoptr(KomiAnalysisEngine) self = NULL;
  g_auto(GStrv) argv = NULL;

  g_return_val_if_fail (recipe != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (recipe->flavor != KOMI_GTP_GNUGO && recipe->flavor != KOMI_GTP_KATAGO)
    {
      g_set_error (error, KOMI_REVIEW_ERROR, KOMI_REVIEW_ERROR_ENGINE,
                   _("%s cannot analyse games: review needs KataGo or GNU Go "
                     "(--engine katago or --engine gnugo)"), recipe->label);
      return NULL;
    }
  /* KataGo prints its analysis only for moves its search visited; one
   * visit is the root's alone, and the answer would have no score. */
  if (recipe->flavor == KOMI_GTP_KATAGO && recipe->visits < 2)
    {
      g_set_error (error, KOMI_REVIEW_ERROR, KOMI_REVIEW_ERROR_ENGINE,
                   _("KataGo needs at least 2 visits a position to analyse (katago:%u given)"),
                   recipe->visits);
      return NULL;
    }
  self = g_new0 (KomiAnalysisEngine, 1);
  self->recipe = komi_gtp_recipe_copy (recipe);
  argv = analysis_argv (recipe);
  self->gtp = komi_gtp_engine_new ((const char * const *) argv, recipe->label,
                                   recipe->start_timeout_ms, cancellable, error);
  if (self->gtp == NULL)
    return NULL;
  if (recipe->flavor == KOMI_GTP_KATAGO
      && !komi_gtp_engine_send (self->gtp, "kata-set-rules " KOMI_KATAGO_RULES_JSON, NULL,
                                recipe->timeout_ms, cancellable, error))
    return NULL;
  return g_steal_pointer (&self);
}

gboolean
komi_analysis_engine_reset (KomiAnalysisEngine *self,
                            guint               size,
                            double              komi,
                            GCancellable       *cancellable,
                            GError            **error)
{
  g_autofree char *boardsize = g_strdup_printf ("boardsize %u", size);
  char komi_text[G_ASCII_DTOSTR_BUF_SIZE];
  g_autofree char *komi_command = NULL;
  const char *commands[3];

  g_return_val_if_fail (self != NULL, FALSE);

  g_ascii_formatd (komi_text, sizeof komi_text, "%g", komi);
  komi_command = g_strconcat ("komi ", komi_text, NULL);
  commands[0] = boardsize;
  commands[1] = "clear_board";
  commands[2] = komi_command;
  return komi_gtp_engine_send_many (self->gtp, commands, 3, self->recipe->timeout_ms,
                                    cancellable, error);
}

gboolean
komi_analysis_engine_play (KomiAnalysisEngine *self,
                           guint               size,
                           const KomiMove     *move,
                           GCancellable       *cancellable,
                           GError            **error)
{
  char name[KOMI_NAME_LEN + 1];
  g_autofree char *command = NULL;

  g_return_val_if_fail (self != NULL && move != NULL, FALSE);

  command = g_strdup_printf ("play %s %s", move->color == KOMI_BLACK ? "b" : "w",
                             komi_point_to_name (size, move->point, name));
  return komi_gtp_engine_send (self->gtp, command, NULL, self->recipe->timeout_ms,
                               cancellable, error);
}

static gboolean
evaluate_gnugo (KomiAnalysisEngine *self,
                guint               size,
                KomiColor           to_move,
                double             *lead,
                KomiPoint          *best,
                GCancellable       *cancellable,
                GError            **error)
{
  g_autofree char *score = NULL;
  g_autofree char *move = NULL;
  g_autofree char *genmove = NULL;
  double black_lead;

  genmove = g_strdup_printf ("reg_genmove %s", to_move == KOMI_BLACK ? "black" : "white");
  if (!komi_gtp_engine_send (self->gtp, "final_score", &score, self->recipe->timeout_ms,
                             cancellable, error)
      || !komi_gtp_engine_send (self->gtp, genmove, &move, self->recipe->timeout_ms,
                                cancellable, error))
    return FALSE;
  if (!komi_analysis_parse_gnugo_score (score, &black_lead))
    {
      g_set_error (error, KOMI_REVIEW_ERROR, KOMI_REVIEW_ERROR_ANSWER,
                   _("GNU Go answered final_score with “%s”, not a score like B+3"), score);
      return FALSE;
    }
  if (g_ascii_strcasecmp (move, "resign") == 0)
    *best = KOMI_NO_POINT;
  else if (!komi_point_from_name (size, move, best))
    {
      g_set_error (error, KOMI_REVIEW_ERROR, KOMI_REVIEW_ERROR_ANSWER,
                   _("GNU Go answered reg_genmove with “%s”, not a point"), move);
      return FALSE;
    }
  *lead = to_move == KOMI_BLACK ? black_lead : -black_lead;
  return TRUE;
}

static gboolean
evaluate_katago (KomiAnalysisEngine *self,
                 guint               size,
                 KomiColor           to_move,
                 double             *lead,
                 KomiPoint          *best,
                 GCancellable       *cancellable,
                 GError            **error)
{
  const char *color = to_move == KOMI_BLACK ? "b" : "w";
  g_autofree char *command = NULL;
  g_autofree char *reply = NULL;
  g_autoptr(GError) local = NULL;

  if (!self->no_search_analyze)
    {
      command = g_strdup_printf ("kata-search_analyze %s rootInfo true", color);
      if (!komi_gtp_engine_send (self->gtp, command, &reply, self->recipe->timeout_ms,
                                 cancellable, &local))
        {
          if (!g_error_matches (local, KOMI_PLAYER_ERROR, KOMI_PLAYER_ERROR_GTP))
            {
              g_propagate_error (error, g_steal_pointer (&local));
              return FALSE;
            }
          /* An unknown command: a KataGo from before kata-search_analyze. */
          self->no_search_analyze = TRUE;
          g_clear_error (&local);
          g_clear_pointer (&command, g_free);
        }
    }
  if (self->no_search_analyze)
    {
      command = g_strdup_printf ("kata-genmove_analyze %s", color);
      if (!komi_gtp_engine_send (self->gtp, command, &reply, self->recipe->timeout_ms,
                                 cancellable, error))
        return FALSE;
    }
  if (!komi_analysis_parse_katago (reply, size, lead, best))
    {
      g_autofree char *shown = g_utf8_make_valid (reply, MIN (strlen (reply), 120));

      g_set_error (error, KOMI_REVIEW_ERROR, KOMI_REVIEW_ERROR_ANSWER,
                   _("KataGo answered “%s” with no scoreLead or move: “%s”"),
                   command, shown);
      return FALSE;
    }
  /* kata-genmove_analyze played the move (unless it resigned); take it back. */
  if (self->no_search_analyze && *best != KOMI_NO_POINT
      && !komi_gtp_engine_send (self->gtp, "undo", NULL, self->recipe->timeout_ms,
                                cancellable, error))
    return FALSE;
  return TRUE;
}

gboolean
komi_analysis_engine_evaluate (KomiAnalysisEngine *self,
                               guint               size,
                               KomiColor           to_move,
                               double             *lead,
                               KomiPoint          *best,
                               GCancellable       *cancellable,
                               GError            **error)
{
  g_return_val_if_fail (self != NULL && lead != NULL && best != NULL, FALSE);
  g_return_val_if_fail (to_move == KOMI_BLACK || to_move == KOMI_WHITE, FALSE);

  if (self->recipe->flavor == KOMI_GTP_KATAGO)
    return evaluate_katago (self, size, to_move, lead, best, cancellable, error);
  return evaluate_gnugo (self, size, to_move, lead, best, cancellable, error);
}

const char *
komi_analysis_engine_get_name (KomiAnalysisEngine *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return komi_gtp_engine_get_name (self->gtp);
}

const char *
komi_analysis_engine_get_version (KomiAnalysisEngine *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return komi_gtp_engine_get_version (self->gtp);
}

const char *
komi_analysis_engine_get_label (KomiAnalysisEngine *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->recipe->flavor == KOMI_GTP_KATAGO ? KATAGO_LABEL : GNUGO_LABEL;
}

char *
komi_analysis_engine_dup_settings (KomiAnalysisEngine *self)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autofree char *base = NULL;
  JsonObject *object;

  g_return_val_if_fail (self != NULL, NULL);

  /* The recipe's own settings (binary, argv, level or visits), plus how
   * the review asked it. */
  base = komi_gtp_recipe_settings (self->recipe, 0);
  if (!json_parser_load_from_data (parser, base, -1, NULL))
    return g_steal_pointer (&base);
  object = json_node_get_object (json_parser_get_root (parser));
  if (self->recipe->flavor == KOMI_GTP_KATAGO)
    json_object_set_string_member (object, "commands",
                                   self->no_search_analyze ? "kata-genmove_analyze rootInfo, undo"
                                                           : "kata-search_analyze rootInfo");
  else
    json_object_set_string_member (object, "commands", "final_score, reg_genmove");
  json_generator_set_root (generator, json_parser_get_root (parser));
  return json_generator_to_data (generator, NULL);
}

void
komi_analysis_engine_free (KomiAnalysisEngine *self)
{
  if (self == NULL)
    return;
  g_clear_pointer (&self->gtp, komi_gtp_engine_free);
  g_clear_pointer (&self->recipe, komi_gtp_recipe_free);
  g_free (self);
}
