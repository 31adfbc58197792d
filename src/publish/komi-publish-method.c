/* komi-publish-method.c
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "komi-publish"

#include "config.h"

#include <math.h>
#include <string.h>

#include "komi-ladder-ship.h"
#include "komi-orientation.h"
#include "komi-rating.h"
#include "komi-protocol.h"
#include "komi-publish-private.h"

/* methodology.html: how the benchmark is played and counted, for a reader
 * who has only the site. The protocol whole (the rules text every request
 * carries, the request's fields, the two questions as sent), the
 * orientations, the ladder and the scale, and what a forfeit, a void, a
 * turn-limit game and a transport fault are. Every page links to it. */

static void
append_question (GString *s, KomiProtocolQuestion q)
{
  g_autofree char *black = komi_protocol_dup_question_text (q, KOMI_BLACK);

  g_string_append (s, "<dt><code>");
  _komi_html_append (s, komi_protocol_question_id (q));
  g_string_append (s, "</code></dt><dd><pre class=\"protocol-text\">");
  _komi_html_append (s, black);
  g_string_append (s, "</pre></dd>\n");
}

/* The shipped ladder's own evidence: its members as `komi-cli ladder`
 * prints them, how well the frozen ratings predict the calibration games
 * (`ladder --fit`: neighbours and pairs further apart), and what its own
 * uncertainty adds to a subject rated near each member (what
 * `--with-ladder-uncertainty` adds, from the covariance the file ships).
 * Nothing when Komi ships no ladder for @protocol. */
static void
append_ladder_evidence (GString *s, guint protocol)
{
  g_autoptr(KomiLadder) ladder = komi_ladder_shipped (protocol, NULL);
  g_autoptr(KomiResultList) games = NULL;
  g_autofree char *members = NULL, *fit = NULL;
  g_autofree double *games_vs = NULL;
  guint k;

  if (ladder == NULL || ladder->members->len == 0)
    return;
  k = ladder->members->len;
  members = komi_rating_format_text (ladder, NULL);
  g_string_append (s,
    "<h2 id=\"ladder-evidence\">The ladder's evidence</h2>\n<p>The shipped ladder as "
    "<code>komi-cli ladder</code> prints it: each member's frozen Elo with its 95% interval "
    "relative to the pinned random player, and its rating above the member below it with "
    "that difference's own 95% half-width.</p>\n<pre class=\"ladder-members\" tabindex=\"0\">");
  _komi_html_append (s, members);
  g_string_append (s, "</pre>\n");
  games = komi_ladder_shipped_games (protocol, NULL);
  if (games != NULL && games->results->len > 0)
    {
      fit = komi_ladder_fit_format_text (ladder, komi_result_list_index (games, 0),
                                         games->results->len);
      g_string_append (s,
        "<h3 id=\"ladder-fit\">How well the ratings predict the calibration games</h3>\n"
        "<p>For every pair of members that met in the calibration, the stronger one's points "
        "against what the frozen ratings predict (<code>komi-cli ladder --fit</code>). Pairs "
        "two or more steps apart were never fitted alone: their Σz² checks that the steps "
        "add up.</p>\n<pre class=\"ladder-fit\" id=\"ladder-fit-table\" tabindex=\"0\">");
      _komi_html_append (s, fit);
      g_string_append (s, "</pre>\n");
    }
  if (ladder->covariance == NULL)
    return;
  g_string_append (s,
    "<h3 id=\"ladder-uncertainty\">The ladder's own uncertainty</h3>\n<p>A subject's "
    "interval on the leaderboard is on the frozen ladder's scale: it says how well the "
    "subject's games place it against the members, taking their ratings as exact. The "
    "members' ratings are themselves known only to the calibration's precision, and the "
    "ladder file ships their full covariance, so that this can be added: a subject's rating "
    "moves with member <var>i</var> by <var>g<sub>i</sub></var> = <var>w<sub>i</sub></var> / "
    "Σ <var>w</var> (<var>w</var> = games × <var>p</var>(1 − <var>p</var>) at its rating), "
    "and the ladder adds the variance <var>g</var>ᵀΣ<var>g</var>. <code>komi-cli ratings "
    "--with-ladder-uncertainty</code> and <code>komi-cli rate --with-ladder-uncertainty</code> "
    "widen the intervals by it. Two subjects rated near the same rung share that rung's "
    "uncertainty and can be compared on their own intervals; near different rungs, the "
    "uncertainty of the difference between those rungs enters. What it adds to a subject "
    "at a member's rating that played the member and its neighbours alike:</p>\n"
    "<div class=\"table-wrap\"><table class=\"ladder-uncertainty\"><thead><tr><th>Near</th><th>Elo</th>"
    "<th>The ladder's share (95%)</th></tr></thead><tbody>\n");
  games_vs = g_new0 (double, k);
  for (guint i = 0; i < k; i++)
    {
      const KomiLadderMember *m = ladder->members->pdata[i];
      double variance;

      memset (games_vs, 0, k * sizeof *games_vs);
      for (guint j = i > 0 ? i - 1 : 0; j <= i + 1 && j < k; j++)
        games_vs[j] = 1;
      variance = komi_rating_ladder_variance (ladder, games_vs, m->rating);
      g_string_append (s, "<tr><td><code>");
      _komi_html_append (s, m->label);
      g_string_append_printf (s, "</code></td><td>%.0f</td><td>± %.0f</td></tr>\n",
                              fabs (m->rating) < 0.5 ? 0 : m->rating,
                              1.959964 * sqrt (variance));
    }
  g_string_append (s, "</tbody></table></div>\n");
}

gboolean
_komi_publish_methodology_page (KomiPublishOut *out,
                                guint           protocol,
                                GError        **error)
{
  g_autoptr(GString) s = g_string_sized_new (16384);
  const char *rules = komi_protocol_get_rules_text (protocol, NULL);

  _komi_publish_page_start (s, "Methodology", "");
  g_string_append_printf (s, "<h1>Methodology: Protocol %u</h1>\n", protocol);
  g_string_append (s,
    "<p>Each game is 9x9 Go between a subject (a language model, named by its profile's "
    "name and model id) and a member of a fixed ladder of reference opponents, refereed by "
    "Komi's rules core: no suicide, positional superko, area scoring, komi 7. Every call the "
    "model was sent is on the game's page, with its raw response.</p>\n"
    "<h2 id=\"protocol\">The protocol</h2>\n"
    "<p>Every request carries, as its system part, the rules text below, byte for byte "
    "(also as <a href=\"");
  g_string_append_printf (s, "protocol-%u-rules.txt\">protocol-%u-rules.txt</a>):</p>\n"
                             "<pre class=\"protocol-text\" id=\"rules-text\">", protocol,
                          protocol);
  _komi_html_append (s, rules != NULL ? rules : "");
  g_string_append (s,
    "</pre>\n<p>Then, as the user part, one JSON object: <code>state</code> with "
    "<code>to_move</code> (<code>X</code> or <code>O</code>), <code>board</code> (text rows "
    "under a row of column letters, row 9 first, <code>X</code> black, <code>O</code> "
    "white, <code>.</code> empty, in the orientation of the game), <code>turns_left</code>, "
    "<code>opponent_just_passed</code> and <code>points_forbidden_by_superko</code>; and "
    "<code>questions</code>, each with its <code>id</code>, <code>question</code> and "
    "<code>options</code>. One question per call: first <code>play_or_pass</code>; when "
    "the model places a stone, <code>best_point</code> with every legal point of the board "
    "as shown as the options. The questions, as sent when X is to play:</p>\n"
    "<dl class=\"facts\">\n");
  append_question (s, KOMI_PROTOCOL_QUESTION_PLAY_OR_PASS);
  append_question (s, KOMI_PROTOCOL_QUESTION_BEST_POINT);
  g_string_append (s,
    "</dl>\n<p>The answer must be one of the options exactly; it is constrained to them "
    "wherever the provider's API allows. Where the provider returns them, the model's "
    "probabilities of the options are recorded and shown on the board.</p>\n"
    "<h2 id=\"orientations\">Orientations</h2>\n<p>So that a model cannot gain from a bias "
    "toward some point names, each game shows the players the board in one of eight "
    "orientations, fixed for the game by the series' seed; answers are mapped back to the "
    "real board. The replay can show the board as the model saw it. The orientations:</p>"
    "\n<ol start=\"0\" class=\"orientations\">");
  {
    static const char *const what[] = {
      "the board as it is", "rotated 90° clockwise", "rotated 180°",
      "rotated 270° clockwise", "mirrored left to right", "mirrored top to bottom",
      "mirrored in the A9–J1 diagonal", "mirrored in the A1–J9 diagonal",
    };

    for (guint i = 0; i < KOMI_N_ORIENTATIONS; i++)
      {
        g_string_append (s, "<li><code>");
        _komi_html_append (s, komi_orientation_to_string (i));
        g_string_append (s, "</code>: ");
        _komi_html_append (s, what[i]);
        g_string_append (s, "</li>");
      }
  }
  g_string_append (s,
    "</ol>\n<h2 id=\"ladder\">The ladder and the scale</h2>\n<p>The opponents are a ladder "
    "of fixed players: a seeded random player, GNU Go at fixed levels and KataGo at fixed "
    "visits with one search thread, and bridging rungs between them. A bridging rung "
    "<code>mix:P:ENGINE</code> plays, on each of its turns, the random player's move with "
    "chance P and the engine's move otherwise, the coin drawn from the game's seed, so that "
    "the gap between the random player and the weakest engine is filled. Each member is "
    "pinned by its identity: the name and version it reports, its level or visits and, for "
    "KataGo, its network's SHA-256; games whose engine or referee differ from the pins are "
    "set apart, never rated. The members' ratings were fitted once from games among them "
    "(the calibration) and are frozen; the random player is pinned at 0 on this Elo scale, "
    "so a rating means the same in every library rated on the shipped ladder. The "
    "leaderboard names the ladder it used.</p>\n"
    "<h2 id=\"rating\">How a rating is computed</h2>\n<p>A subject's rating is the "
    "maximum-likelihood Elo against the frozen members (the logistic model, 400 points for "
    "a factor of 10 in odds), with a 95% interval from the profile likelihood (taken at its "
    "96.5% level, the level at which rated subjects' intervals were measured to hold their "
    "true rating 95% of the time). Draws count "
    "half, forfeits count as losses, voids are never rated. A subject that wins or loses "
    "every game gets a bound (<code>&gt; 412</code>), never a number. The interval leaves "
    "out the ladder's own uncertainty, shown below.</p>\n"
    "<h2 id=\"counting\">What is counted apart</h2>\n<dl class=\"facts definitions\">\n"
    "<dt id=\"turn-limit\">Turn limit</dt><dd>A game that reached the protocol's limit of "
    "turns (passes count) before two passes in a row. It is scored by area like any other, "
    "but marked <em>turn limit</em> on every list and counted apart from the games that "
    "ended by two passes.</dd>\n"
    "<dt id=\"forfeit\">Forfeit</dt><dd>The model gave no valid answer to a question in 3 "
    "attempts (a refusal, an empty, truncated or filtered answer, or one that is not an "
    "option). The game ends there, lost by the model (<code>RE[W+F]</code> or "
    "<code>RE[B+F]</code>); the replay shows that last turn and its rejected answers.</dd>\n"
    "<dt id=\"transport-fault\">Transport fault</dt><dd>A failure of the connection or the "
    "provider, not of the model: a connection error, a timeout, HTTP 408, 409, 429, 5xx or "
    "529. The call is retried with backoff, honouring the provider's retry advice, and never "
    "counts against the model; the replay shows such attempts apart.</dd>\n"
    "<dt id=\"void\">Void</dt><dd>A game that could not be played to its end for a reason "
    "that is neither player's play (an engine that crashed or stopped answering, a referee "
    "that failed). It is shown with its reason and never rated.</dd>\n"
    "<dt id=\"unfinished\">Unfinished</dt><dd>A game whose play stopped (the series was "
    "paused or interrupted); resuming the series continues it.</dd>\n</dl>\n");
  append_ladder_evidence (s, protocol);
  _komi_publish_page_end (s);
  return _komi_publish_write (out, "methodology.html", s->str, s->len, error);
}
