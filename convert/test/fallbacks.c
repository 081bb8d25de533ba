// SPDX-License-Identifier: GPL-2.0
/*
 * scripts/convert's test: functions that --native must wrap, whole, each
 * for the reason its comment gives, and one it must leave alone.
 */
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/uaccess.h>

static char data[64];

/* Defined in another file: left alone. */
ssize_t elsewhere_write(struct file *file, const char __user *buf,
			size_t count, loff_t *ppos);
static unsigned long last;

/* The count of bytes not copied is passed on: no pattern takes it. */
static ssize_t argument_read(struct file *file, char __user *buf,
			     size_t count, loff_t *ppos)
{
	last = max(copy_to_user(buf, data, 4), 1UL);
	return 4;
}

/* n is a call: it would be made twice. */
static ssize_t strlen_read(struct file *file, char __user *buf, size_t count,
			 loff_t *ppos)
{
	if (copy_to_user(buf, data, strlen(data)))
		return -EFAULT;
	return strlen(data);
}

/* copy_from_user()'s count used as a number: it zeroes the rest. */
static ssize_t numeric_write(struct file *file, const char __user *buf,
			     size_t count, loff_t *ppos)
{
	size_t n = min(count, sizeof(data));

	n -= copy_from_user(data, buf, n);
	return n ? n : -EFAULT;
}

/* Two accesses: the second is at offset 0 again, for .write. */
static ssize_t twice_write(struct file *file, const char __user *buf,
			   size_t count, loff_t *ppos)
{
	if (copy_from_user(data, buf, 1))
		return -EFAULT;
	if (data[0] == 'x' && copy_from_user(data, buf, 2))
		return -EFAULT;
	return count;
}

/* In a loop, at the same offset each time round. */
static ssize_t loop_read(struct file *file, char __user *buf, size_t count,
			 loff_t *ppos)
{
	int i;

	for (i = 0; i < 3; i++)
		if (copy_to_user(buf, data, 1))
			return -EFAULT;
	return 1;
}

/* The chunk loop, but with a continue that skips a copy. */
static ssize_t chunk_continue_write(struct file *file, const char __user *buf,
				    size_t count, loff_t *ppos)
{
	size_t done, n;

	for (done = 0; done < count; done += n) {
		n = min(count - done, sizeof(data));
		if (done == 8)
			continue;
		if (copy_from_user(data, buf + done, n))
			return -EFAULT;
	}
	return count;
}

/* The chunk loop inside another: its second time finds the iterator empty. */
static ssize_t chunk_twice_write(struct file *file, const char __user *buf,
				 size_t count, loff_t *ppos)
{
	size_t done, n;
	int pass;

	for (pass = 0; pass < 2; pass++) {
		for (done = 0; done < count; done += n) {
			n = min(count - done, sizeof(data));
			if (copy_from_user(data, buf + done, n))
				return -EFAULT;
		}
	}
	return count;
}

/* An offset outside any loop. */
static ssize_t offset_read(struct file *file, char __user *buf, size_t count,
			   loff_t *ppos)
{
	if (count < 8 || copy_to_user(buf + 4, data, 4))
		return -EFAULT;
	return 8;
}

/* put_user() of an int through a u8 pointer: one byte, not four. */
static ssize_t narrow_read(struct file *file, char __user *buf, size_t count,
			   loff_t *ppos)
{
	int v = 7;

	if (put_user(v, (u8 __user *)buf))
		return -EFAULT;
	return 1;
}

/* get_user()'s -EFAULT passed on: get_iter() gives 1. */
static ssize_t value_write(struct file *file, const char __user *buf,
			   size_t count, loff_t *ppos)
{
	char c;
	int ret = get_user(c, buf);

	return ret ? ret : 1;
}

/* A stream file's .read gets a NULL ppos; ki_pos is never NULL. */
static ssize_t null_ppos_read(struct file *file, char __user *buf,
			      size_t count, loff_t *ppos)
{
	if (ppos && *ppos)
		return 0;
	return simple_read_from_buffer(buf, count, ppos, data, 4);
}

/* Not the whole buffer: count is cut first. */
static ssize_t cut_read(struct file *file, char __user *buf, size_t count,
			loff_t *ppos)
{
	count = min(count, (size_t)4);
	return simple_read_from_buffer(buf, count, ppos, data, sizeof(data));
}

/* Called directly too: the legacy function must stay. */
static ssize_t called_read(struct file *file, char __user *buf, size_t count,
			   loff_t *ppos)
{
	return simple_read_from_buffer(buf, count, ppos, data, sizeof(data));
}

static ssize_t caller_read(struct file *file, char __user *buf, size_t count,
			   loff_t *ppos)
{
	return called_read(file, buf, count, ppos);
}

static const struct file_operations a_fops = {
	.read		= argument_read,
	.write		= numeric_write,
};

static const struct file_operations b_fops = {
	.read		= strlen_read,
	.write		= twice_write,
};

static const struct file_operations c_fops = {
	.read		= loop_read,
	.write		= chunk_continue_write,
};

static const struct file_operations d_fops = {
	.read		= offset_read,
	.write		= value_write,
};

static const struct file_operations e_fops = {
	.read		= narrow_read,
	.write		= elsewhere_write,
};

static const struct file_operations f_fops = {
	.read		= null_ppos_read,
	.write		= chunk_twice_write,
};

static const struct file_operations g_fops = {
	.read		= cut_read,
};

static const struct file_operations h_fops = {
	.read		= called_read,
};

static const struct file_operations i_fops = {
	.read		= caller_read,
};

/* Misc devices, never registered: how the VFS would call the fops. */
static struct miscdevice fallbacks_misc[] __maybe_unused = {
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
