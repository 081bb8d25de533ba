// SPDX-License-Identifier: GPL-2.0
/*
 * scripts/convert's test: the watchdogs' scan of a write for the magic
 * 'V', a char at a time with get_user() at the loop's index, converted
 * natively with get_iter() (chunk-loop.cocci's byte scan); and the scans
 * it must wrap, each for the reason its comment gives.
 */
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/uaccess.h>

static bool nowayout;
static int expect_close;

/* drivers/watchdog/pcwd_usb.c's shape: native. */
static ssize_t usb_write(struct file *file, const char __user *data,
			 size_t len, loff_t *ppos)
{
	if (len) {
		if (!nowayout) {
			size_t i;

			expect_close = 0;
			for (i = 0; i != len; i++) {
				char c;

				if (get_user(c, data + i))
					return -EFAULT;
				if (c == 'V')
					expect_close = 42;
			}
		}
	}
	return len;
}

/* watchdog_dev.c's shape, a continue after the read: native. */
static ssize_t dev_write(struct file *file, const char __user *data,
			 size_t len, loff_t *ppos)
{
	size_t i;
	char c;

	for (i = 0; i < len; i++) {
		if (get_user(c, data + i))
			return -EFAULT;
		if (c != 'V')
			continue;
		expect_close = 42;
	}
	return len;
}

/* A continue before the read: i steps on, the iterator would not. */
static ssize_t continue_write(struct file *file, const char __user *data,
			      size_t len, loff_t *ppos)
{
	size_t i;
	char c;

	for (i = 0; i != len; i++) {
		if (i == 3)
			continue;
		if (get_user(c, data + i))
			return -EFAULT;
		if (c == 'V')
			expect_close = 42;
	}
	return len;
}

/* i stepped in the loop: a byte skipped by buf + i, read by get_iter(). */
static ssize_t skip_write(struct file *file, const char __user *data,
			  size_t len, loff_t *ppos)
{
	size_t i;
	char c;

	for (i = 0; i != len; i++) {
		if (get_user(c, data + i))
			return -EFAULT;
		if (c == '\\')
			i++;
	}
	return len;
}

/* An int read from a char pointer: get_iter() would take four bytes. */
static ssize_t int_write(struct file *file, const char __user *data,
			 size_t len, loff_t *ppos)
{
	size_t i;
	int c;

	for (i = 0; i != len; i++) {
		if (get_user(c, data + i))
			return -EFAULT;
		if (c == 'V')
			expect_close = 42;
	}
	return len;
}

/* The read under a condition: a byte of the iterator for every other. */
static ssize_t odd_write(struct file *file, const char __user *data,
			 size_t len, loff_t *ppos)
{
	size_t i;
	char c;

	for (i = 0; i != len; i++) {
		if (i & 1) {
			if (get_user(c, data + i))
				return -EFAULT;
			if (c == 'V')
				expect_close = 42;
		}
	}
	return len;
}

/* A failed read that goes on: i steps on, the iterator stays. */
static ssize_t skip_fault_write(struct file *file, const char __user *data,
				size_t len, loff_t *ppos)
{
	size_t i;
	char c;

	for (i = 0; i != len; i++) {
		if (get_user(c, data + i))
			continue;
		if (c == 'V')
			expect_close = 42;
	}
	return len;
}

/* A failed read noted, and the scan goes on: as above. */
static ssize_t note_fault_write(struct file *file, const char __user *data,
				size_t len, loff_t *ppos)
{
	ssize_t ret = len;
	size_t i;
	char c;

	for (i = 0; i != len; i++) {
		if (get_user(c, data + i))
			ret = -EFAULT;
		else if (c == 'V')
			expect_close = 42;
	}
	return ret;
}

/* The scan inside another loop: the second pass finds the iterator used up. */
static ssize_t pass_write(struct file *file, const char __user *data,
			  size_t len, loff_t *ppos)
{
	size_t i;
	int pass;
	char c;

	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i != len; i++) {
			if (get_user(c, data + i))
				return -EFAULT;
			if (c == 'V' && pass)
				expect_close = 42;
		}
	}
	return len;
}

static const struct file_operations a_fops = {
	.owner		= THIS_MODULE,
	.write		= usb_write,
};

static const struct file_operations b_fops = {
	.owner		= THIS_MODULE,
	.write		= dev_write,
};

static const struct file_operations c_fops = {
	.owner		= THIS_MODULE,
	.write		= continue_write,
};

static const struct file_operations d_fops = {
	.owner		= THIS_MODULE,
	.write		= skip_write,
};

static const struct file_operations e_fops = {
	.owner		= THIS_MODULE,
	.write		= int_write,
};

static const struct file_operations f_fops = {
	.owner		= THIS_MODULE,
	.write		= odd_write,
};

static const struct file_operations g_fops = {
	.owner		= THIS_MODULE,
	.write		= pass_write,
};

static const struct file_operations h_fops = {
	.owner		= THIS_MODULE,
	.write		= skip_fault_write,
};

static const struct file_operations i_fops = {
	.owner		= THIS_MODULE,
	.write		= note_fault_write,
};

/* Misc devices, never registered: how the VFS would call the fops. */
static struct miscdevice byte_scan_misc[] __maybe_unused = {
	{ .name = "a", .fops = &a_fops },
	{ .name = "b", .fops = &b_fops },
	{ .name = "c", .fops = &c_fops },
	{ .name = "d", .fops = &d_fops },
	{ .name = "e", .fops = &e_fops },
	{ .name = "f", .fops = &f_fops },
	{ .name = "g", .fops = &g_fops },
	{ .name = "h", .fops = &h_fops },
	{ .name = "i", .fops = &i_fops },
};

MODULE_LICENSE("GPL");
