/* SPDX-License-Identifier: GPL-2.0 */
/* scripts/convert's test: a module of two files (a.c, b.c). */
#ifndef SPLIT_H
#define SPLIT_H

#include <linux/fs.h>

ssize_t split_read(struct file *file, char __user *buf, size_t count,
		   loff_t *ppos);
ssize_t split_write(struct file *file, const char __user *buf, size_t count,
		    loff_t *ppos);

#endif /* SPLIT_H */
