/* SPDX-License-Identifier: GPL-2.0 */
/*
 * scripts/convert's test, a module of two files shaped like LDD3's scull:
 * main.c defines the read and write functions (not static: declared
 * here) and one device; extra.c's devices use the same functions through
 * fops of their own, as scull's access.c does.
 */
#ifndef KITMOD_H
#define KITMOD_H

#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/mutex.h>

#define KITMOD_SIZE	64

/* A device: each write replaces what it holds. */
struct kitmod_dev {
	struct miscdevice	misc;
	struct mutex		lock;		/* data, size */
	char			data[KITMOD_SIZE];
	size_t			size;
};

ssize_t kitmod_read(struct file *file, char __user *buf, size_t count,
		    loff_t *ppos);
ssize_t kitmod_write(struct file *file, const char __user *buf, size_t count,
		     loff_t *ppos);

int kitmod_extra_init(void);
void kitmod_extra_exit(void);

#endif /* KITMOD_H */
