/* komi-public.h
 *
 * Copyright 2026 The Komi authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "komi-store.h"

G_BEGIN_DECLS

/* The rule for what leaves the machine when a library is published
 * (`komi-cli publish`) or exported for the public (`komi-cli export
 * --public`): no absolute local path (cut to its file name), no base-URL
 * host (shown as "[host]"), no key variable's name, and of the response
 * headers only those a reader needs (docs/library.md#public-exports). A
 * model is named by its profile's name and model id, an engine by its
 * pinned identity (name, version, level or visits, network SHA-256). */

typedef enum
{
  KOMI_PUBLIC_KEEP_REQUEST_IDS = 1 << 0,  /* keep x-request-id, request-id… */
} KomiPublicFlags;

typedef struct _KomiPublic KomiPublic;

KomiPublic *komi_public_new          (KomiPublicFlags  flags);
void        komi_public_free         (KomiPublic      *self);
/* A KomiPublic is not for several threads at once (it learns as it goes):
 * each thread takes a copy, with what the original has learned so far,
 * and komi_public_absorb() gives the original what a copy learned. */
KomiPublic *komi_public_copy         (const KomiPublic *self);
void        komi_public_absorb       (KomiPublic      *self,
                                      const KomiPublic *other);

/* Text with every absolute local path ("/home/a/x.json", "~/x/y") cut to
 * its file name, every URL's scheme and host to "[host]", and the hosts
 * and key variables seen so far (komi_public_learn_settings, the calls'
 * URLs) hidden. NULL stays NULL. Free with g_free. */
char       *komi_public_text         (KomiPublic      *self,
                                      const char      *text);
/* A player's settings (JSON object text): "url", "base_url" and "key_env"
 * left out (the host and the variable learnt first), every other string
 * as komi_public_text gives it. */
char       *komi_public_settings     (KomiPublic      *self,
                                      const char      *settings);
/* Only the allowed headers of a stored header object (JSON object text);
 * the key headers of a request as "[redacted]". */
char       *komi_public_headers      (KomiPublic      *self,
                                      const char      *headers,
                                      gboolean         request);
/* Remembers the host of @url and the key variable named in @settings, so
 * that komi_public_text hides them wherever they appear. */
void        komi_public_learn_url    (KomiPublic      *self,
                                      const char      *url);
void        komi_public_learn_settings (KomiPublic    *self,
                                        const char    *settings);

/* A public view of a call or a game: a copy of the struct whose strings
 * are the public ones (owned by the view), the rest shared with the
 * original, which must outlive it. */
typedef struct
{
  KomiStoreCall  call;
  GPtrArray     *owned;
  GBytes        *body;
} KomiPublicCall;

typedef struct
{
  KomiStoreGame  game;
  GPtrArray     *owned;
} KomiPublicGame;

const KomiStoreCall *komi_public_call      (KomiPublic          *self,
                                            const KomiStoreCall *call,
                                            KomiPublicCall      *view);
void                 komi_public_call_clear (KomiPublicCall     *view);
const KomiStoreGame *komi_public_game      (KomiPublic          *self,
                                            const KomiStoreGame *game,
                                            KomiPublicGame      *view);
void                 komi_public_game_clear (KomiPublicGame     *view);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KomiPublic, komi_public_free)
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (KomiPublicCall, komi_public_call_clear)
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (KomiPublicGame, komi_public_game_clear)

G_END_DECLS
