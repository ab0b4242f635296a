/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-sha256.c: the sidecars' digest (engine/io/ms-sha256.c) on the
 * test vectors of FIPS 180-4 (NIST's SHA-256 examples: one block, two
 * blocks, a million "a"), the empty message, and data handed over in
 * pieces of every length across the block boundaries; with the portable
 * rounds and, where the CPU has them, its SHA instructions. */
#include <glib.h>
#include <string.h>

#include "ms-sha256.h"

static void
check (const char *text, size_t len, const char *expected)
{
  char hex[MS_SHA256_HEX_LEN];
  ms_sha256_hex_of (text, len, hex);
  g_assert_cmpstr (hex, ==, expected);
}

static void
test_vectors (void)
{
  check ("", 0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  check ("abc", 3, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  const char *two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
  check (two, strlen (two), "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  const char *long_one = "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmno"
                         "ijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu";
  check (long_one, strlen (long_one),
         "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
  char *million = g_malloc (1000000);
  memset (million, 'a', 1000000);
  check (million, 1000000, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
  g_free (million);
}

/* The digest does not depend on how the bytes are handed over, and asking
 * for it leaves the running state as it was. */
static void
test_pieces (void)
{
  char data[300], whole[MS_SHA256_HEX_LEN], hex[MS_SHA256_HEX_LEN];
  for (size_t i = 0; i < sizeof data; i++)
    data[i] = (char) (i * 7 + 3);
  for (size_t len = 0; len <= sizeof data; len += 1) {
    ms_sha256_hex_of (data, len, whole);
    for (size_t piece = 1; piece <= 130; piece += 13) {
      MsSha256 ctx;
      ms_sha256_init (&ctx);
      for (size_t at = 0; at < len; at += piece) {
        ms_sha256_update (&ctx, data + at, len - at < piece ? len - at : piece);
        ms_sha256_hex (&ctx, hex); /* asked midway: no change to what follows */
      }
      ms_sha256_hex (&ctx, hex);
      g_assert_cmpstr (hex, ==, whole);
    }
  }
}

/* Both ways of doing the rounds, where the CPU has both. */
static void
test_both (gconstpointer test)
{
  for (int hardware = 0; hardware < 2; hardware++) {
    if (ms_sha256_use_hardware (hardware) != hardware) {
      g_test_message ("no SHA instructions on this CPU: the portable rounds alone");
      continue;
    }
    ((void (*) (void)) test) ();
  }
  ms_sha256_use_hardware (true);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_data_func ("/sha256/vectors", test_vectors, test_both);
  g_test_add_data_func ("/sha256/pieces", test_pieces, test_both);
  return g_test_run ();
}
