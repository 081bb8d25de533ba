// SPDX-License-Identifier: GPL-2.0
/*
 * scripts/convert's test: copy_to_user() and copy_from_user() in each
 * context the semantic patches accept.  Every function here must come out
 * native, and each rewrite keep the meaning of the result: copy_to_user()
 * counts the bytes NOT copied, copy_to_iter() the bytes copied.  Each
 * copy is bounded by count (a test before it): one that isn't is wrapped
 * (guest-bounded.c).
 */
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/uaccess.h>

static char data[64];

/* LAB 9: a marker comment, as the labs put them. */
static ssize_t if_read(struct file *file, char __user *buf, size_t count,
		       loff_t *ppos)
{
	size_t n = min(count, sizeof(data));

	if (copy_to_user(buf, data, n))
		return -EFAULT;
	return n;
}
/* LAB END */

static ssize_t not_read(struct file *file, char __user *buf, size_t count,
			loff_t *ppos)
{
	if (count < 4)
		return -EINVAL;
	if (!copy_to_user(buf, data, 4))
		return 4;
	return -EFAULT;
}

static ssize_t compared_read(struct file *file, char __user *buf,
			     size_t count, loff_t *ppos)
{
	if (count < sizeof(data))
		return -EINVAL;
	if (copy_to_user(buf, data, sizeof(data)) != 0)
		return -EFAULT;
	return sizeof(data);
}

static ssize_t ternary_read(struct file *file, char __user *buf,
			    size_t count, loff_t *ppos)
{
	if (count < 8)
		return -EINVAL;
	return copy_to_user(buf, data, 8) ? -EFAULT : 8;
}

/* The trap: "-=" on what was copied would subtract the wrong thing. */
static ssize_t minus_read(struct file *file, char __user *buf, size_t count,
			  loff_t *ppos)
{
	size_t n = min(count, sizeof(data));

	n -= copy_to_user(buf, data, n);
	return n ? n : -EFAULT;
}

static ssize_t minus_other_read(struct file *file, char __user *buf,
				size_t count, loff_t *ppos)
{
	ssize_t done = 8;

	if (count < 8)
		return -EINVAL;
	done -= copy_to_user(buf, data, 8);
	return done;
}

static ssize_t assigned_read(struct file *file, char __user *buf,
			     size_t count, loff_t *ppos)
{
	unsigned long left;

	if (count < 16)
		return -EINVAL;
	left = copy_to_user(buf, data, 16);
	if (left)
		return -EFAULT;
	return 16;
}

/* Odd, but exact: it returns the bytes not copied. */
static ssize_t returned_read(struct file *file, char __user *buf,
			     size_t count, loff_t *ppos)
{
	if (count < 2)
		return -EINVAL;
	return copy_to_user(buf, data, 2);
}

static ssize_t if_write(struct file *file, const char __user *buf,
			size_t count, loff_t *ppos)
{
	if (count > sizeof(data))
		return -EINVAL;
	if (copy_from_user(data, buf, count))
		return -EFAULT;
	return count;
}

static ssize_t compared_write(struct file *file, const char __user *buf,
			      size_t count, loff_t *ppos)
{
	if (count < 4)
		return -EINVAL;
	if (copy_from_user(data, buf, 4) == 0)
		return 4;
	return -EFAULT;
}

static const struct file_operations if_fops = {
	.owner		= THIS_MODULE,
	.read		= if_read,
	.write		= if_write,
};

static const struct file_operations not_fops = {
	.read		= not_read,
	.write		= compared_write,
};

static const struct file_operations compared_fops = {
	.read		= compared_read,
};

static const struct file_operations ternary_fops = {
	.read		= ternary_read,
};

static const struct file_operations minus_fops = {
	.read		= minus_read,
};

static const struct file_operations minus_other_fops = {
	.read		= minus_other_read,
};

static const struct file_operations assigned_fops = {
	.read		= assigned_read,
};

static const struct file_operations returned_fops = {
	.read		= returned_read,
};

/* Misc devices, never registered: how the VFS would call the fops. */
static struct miscdevice contexts_misc[] __maybe_unused = {
	{ .name = "if", .fops = &if_fops },
	{ .name = "not", .fops = &not_fops },
	{ .name = "compared", .fops = &compared_fops },
	{ .name = "ternary", .fops = &ternary_fops },
	{ .name = "minus", .fops = &minus_fops },
	{ .name = "minus_other", .fops = &minus_other_fops },
	{ .name = "assigned", .fops = &assigned_fops },
	{ .name = "returned", .fops = &returned_fops },
};

MODULE_LICENSE("GPL");
