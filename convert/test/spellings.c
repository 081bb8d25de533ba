// SPDX-License-Identifier: GPL-2.0
/*
 * scripts/convert's test: every way C lets a driver spell its __user
 * buffer, each a read or a write as it is, all converted.  And a .write
 * the tool can't parse as one (a typedef's buffer): "could not parse",
 * not a claim about the code; and so is a cast in the fops.
 */
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/uaccess.h>

static char text[8];

static ssize_t plain_read(struct file *file, char __user *buf, size_t count,
			  loff_t *ppos)
{
	return simple_read_from_buffer(buf, count, ppos, text, sizeof(text));
}

static ssize_t before_read(struct file *file, __user char *buf, size_t count,
			   loff_t *ppos)
{
	return simple_read_from_buffer(buf, count, ppos, text, 4);
}

static ssize_t constptr_read(struct file *file, char __user *const buf,
			     size_t count, loff_t *ppos)
{
	return simple_read_from_buffer(buf, count, ppos, text, 5);
}

static ssize_t plain_write(struct file *file, const char __user *buf,
			   size_t count, loff_t *ppos)
{
	return simple_write_to_buffer(text, sizeof(text), ppos, buf, count);
}

static ssize_t middle_write(struct file *file, const __user char *buf,
			    size_t count, loff_t *ppos)
{
	return simple_write_to_buffer(text, 4, ppos, buf, count);
}

static ssize_t after_write(struct file *file, char const __user *buf,
			   size_t count, loff_t *ppos)
{
	return simple_write_to_buffer(text, 5, ppos, buf, count);
}

static ssize_t first_write(struct file *file, __user const char *buf,
			   size_t count, loff_t *ppos)
{
	return simple_write_to_buffer(text, 6, ppos, buf, count);
}

typedef const char __user *kc_ubuf_t;

static ssize_t odd_write(struct file *file, kc_ubuf_t buf, size_t count,
			 loff_t *ppos)
{
	return simple_write_to_buffer(text, 7, ppos, buf, count);
}

static ssize_t cast_write(struct file *file, const char __user *buf,
			  size_t count, loff_t *ppos)
{
	return simple_write_to_buffer(text, 8, ppos, buf, count);
}

static const struct file_operations plain_fops = {
	.read		= plain_read,
	.write		= plain_write,
};

static const struct file_operations before_fops = {
	.read		= before_read,
	.write		= middle_write,
};

static const struct file_operations constptr_fops = {
	.read		= constptr_read,
	.write		= after_write,
};

static const struct file_operations first_fops = {
	.write		= first_write,
};

static const struct file_operations odd_fops = {
	.write		= odd_write,
};

static const struct file_operations cast_fops = {
	.write		= (void *)cast_write,
};

static struct miscdevice spellings_misc[] = {
	{ .minor = MISC_DYNAMIC_MINOR, .name = "kc-plain", .fops = &plain_fops },
	{ .minor = MISC_DYNAMIC_MINOR, .name = "kc-before", .fops = &before_fops },
	{ .minor = MISC_DYNAMIC_MINOR, .name = "kc-const", .fops = &constptr_fops },
	{ .minor = MISC_DYNAMIC_MINOR, .name = "kc-first", .fops = &first_fops },
	{ .minor = MISC_DYNAMIC_MINOR, .name = "kc-odd", .fops = &odd_fops },
	{ .minor = MISC_DYNAMIC_MINOR, .name = "kc-cast", .fops = &cast_fops },
};

static int __maybe_unused spellings_init(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(spellings_misc); i++)
		misc_register(&spellings_misc[i]);
	return 0;
}

MODULE_LICENSE("GPL");
