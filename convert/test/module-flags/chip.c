// SPDX-License-Identifier: GPL-2.0
/*
 * scripts/convert's test: a module of three files, converted in one call
 * (chip.c common.c dev.c flags.h), shaped like tpm.ko: the functions in
 * common.c, their fops in dev.c, and this file with no fops at all, which
 * has nothing to convert (not a refusal: the call exits 0).  The report's
 * warnings are the module's: dev.c's fops has .poll, and common.c's write
 * tests O_NONBLOCK, so IOCB_NOWAIT matters for it.
 */
#include <linux/module.h>

#include "flags.h"

int flags_chip_init(void)
{
	return 0;
}
