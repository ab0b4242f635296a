/* SPDX-License-Identifier: GPL-3.0-or-later */
/* pageable: malloc'd host buffers; cudaMemcpy stages them through the
 * driver's hidden pinned buffer and blocks the host while it does. */
#include "ms-k-common.cuh"

extern "C" const KMode ms_k_mode_pageable = { k_alloc_malloc_host, k_rep_explicit_sync };
