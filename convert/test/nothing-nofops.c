// SPDX-License-Identifier: GPL-2.0
/* scripts/convert's test: no file_operations: nothing to convert. */
#include <linux/fs.h>

static ssize_t __maybe_unused lonely_read(struct file *file, char __user *buf,
					  size_t count, loff_t *ppos)
{
	return 0;
}
