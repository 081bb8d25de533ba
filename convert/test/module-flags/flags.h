/* SPDX-License-Identifier: GPL-2.0 */
/* scripts/convert's test: a module of three files (chip.c, common.c, dev.c). */
#ifndef FLAGS_H
#define FLAGS_H

#include <linux/fs.h>
#include <linux/poll.h>

ssize_t flags_read(struct file *file, char __user *buf, size_t count,
		   loff_t *ppos);
ssize_t flags_write(struct file *file, const char __user *buf, size_t count,
		    loff_t *ppos);
__poll_t flags_poll(struct file *file, poll_table *wait);
int flags_chip_init(void);

#endif /* FLAGS_H */
