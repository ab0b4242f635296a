/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-sha256.h: SHA-256 (FIPS 180-4), the digest a sidecar records of each
 * file it describes, so that `sha256sum` confirms it. Plain C, no library;
 * defined in ms-sha256.c. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define MS_SHA256_BYTES 32
/* Its lower-case hex form, with the terminating NUL. */
#define MS_SHA256_HEX_LEN (2 * MS_SHA256_BYTES + 1)

typedef struct {
  uint32_t state[8];
  uint64_t bytes; /* hashed so far */
  unsigned char block[64];
  size_t in_block;
} MsSha256;

void ms_sha256_init (MsSha256 *ctx);

void ms_sha256_update (MsSha256 *ctx, const void *data, size_t len);

/* The digest of what was hashed, in hex[MS_SHA256_HEX_LEN]; ctx is left as
 * it was (more may be added, and the digest asked again). */
void ms_sha256_hex (const MsSha256 *ctx, char *hex);

/* The digest of data[0..len) in hex[MS_SHA256_HEX_LEN]. */
void ms_sha256_hex_of (const void *data, size_t len, char *hex);

/* Whether the CPU's SHA instructions (x86 SHA-NI) do the rounds, where it
 * has them and allowed: they are used from the first digest on; a test
 * checks the portable rounds with false. Returns whether they now are. */
bool ms_sha256_use_hardware (bool allowed);
