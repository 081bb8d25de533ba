// SPDX-License-Identifier: GPL-2.0
/*
 * scripts/convert's test: fops whose registration doesn't take
 * .read_iter/.write_iter as they are, or can't be told, each left legacy
 * with its functions, and the report says why.  debugfs_create_file_size()
 * has no _unsafe form; an .mmap the proxy never passed on would be called
 * unprotected under _unsafe; a debugfs_create_file() in a macro can't be
 * rewritten; a fops given to debugfs and to a misc device can't guard
 * itself for one and not the other; a table whose other fops can't move
 * keeps them all; a fops handed to something the converter can't follow,
 * or registered nowhere, or not static.  A function that a fops left
 * legacy names stays legacy for every fops (shared_read).  One fops, a
 * misc device's, is converted.
 */
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/uaccess.h>

static char data[16];

static ssize_t size_read(struct file *file, char __user *buf, size_t count,
			 loff_t *ppos)
{
	return simple_read_from_buffer(buf, count, ppos, data, 1);
}

static ssize_t mmap_read(struct file *file, char __user *buf, size_t count,
			 loff_t *ppos)
{
	return simple_read_from_buffer(buf, count, ppos, data, 2);
}

static int mmap_mmap(struct file *file, struct vm_area_struct *vma)
{
	return -ENODEV;
}

static ssize_t macro_read(struct file *file, char __user *buf, size_t count,
			  loff_t *ppos)
{
	return simple_read_from_buffer(buf, count, ppos, data, 3);
}

static ssize_t both_read(struct file *file, char __user *buf, size_t count,
			 loff_t *ppos)
{
	return simple_read_from_buffer(buf, count, ppos, data, 4);
}

static ssize_t good_read(struct file *file, char __user *buf, size_t count,
			 loff_t *ppos)
{
	return simple_read_from_buffer(buf, count, ppos, data, 5);
}

static ssize_t bad_read(struct file *file, char __user *buf, size_t count,
			loff_t *ppos)
{
	return simple_read_from_buffer(buf, count, ppos, data, 6);
}

static ssize_t stashed_read(struct file *file, char __user *buf,
			    size_t count, loff_t *ppos)
{
	return simple_read_from_buffer(buf, count, ppos, data, 7);
}

static ssize_t nowhere_read(struct file *file, char __user *buf,
			    size_t count, loff_t *ppos)
{
	return simple_read_from_buffer(buf, count, ppos, data, 8);
}

static ssize_t public_read(struct file *file, char __user *buf,
			   size_t count, loff_t *ppos)
{
	return simple_read_from_buffer(buf, count, ppos, data, 9);
}

static ssize_t shared_read(struct file *file, char __user *buf,
			   size_t count, loff_t *ppos)
{
	return simple_read_from_buffer(buf, count, ppos, data, 10);
}

static ssize_t misc_write(struct file *file, const char __user *buf,
			  size_t count, loff_t *ppos)
{
	return simple_write_to_buffer(data, sizeof(data), ppos, buf, count);
}

static const struct file_operations size_fops = {
	.owner		= THIS_MODULE,
	.read		= size_read,
};

static const struct file_operations mmap_fops = {
	.owner		= THIS_MODULE,
	.read		= mmap_read,
	.mmap		= mmap_mmap,
};

static const struct file_operations macro_fops = {
	.owner		= THIS_MODULE,
	.read		= macro_read,
};

static const struct file_operations both_fops = {
	.owner		= THIS_MODULE,
	.read		= both_read,
};

static const struct file_operations good_fops = {
	.owner		= THIS_MODULE,
	.read		= good_read,
};

static const struct file_operations bad_fops = {
	.owner		= THIS_MODULE,
	.read		= bad_read,
	.mmap		= mmap_mmap,
};

static const struct file_operations stashed_fops = {
	.owner		= THIS_MODULE,
	.read		= stashed_read,
};

static const struct file_operations nowhere_fops __maybe_unused = {
	.owner		= THIS_MODULE,
	.read		= nowhere_read,
};

const struct file_operations public_fops = {
	.owner		= THIS_MODULE,
	.read		= public_read,
};

/* shared_read: named by a fops given to debugfs_create_file_size() too. */
static const struct file_operations shared_size_fops = {
	.owner		= THIS_MODULE,
	.read		= shared_read,
};

static const struct file_operations shared_misc_fops = {
	.owner		= THIS_MODULE,
	.read		= shared_read,
	.write		= misc_write,
};

static const struct legacy_file {
	const char			*name;
	const struct file_operations	*fops;
} legacy_files[] = {
	{ "good",	&good_fops },
	{ "bad",	&bad_fops },
};

#define KIT_DEBUGFS_FILE(name, dir, fops) \
	debugfs_create_file(name, 0400, dir, NULL, &fops)

static const struct file_operations *stash;

static void __maybe_unused keep_for_later(const struct file_operations *fops)
{
	stash = fops;
}

static struct miscdevice legacy_misc[] __maybe_unused = {
	{ .minor = MISC_DYNAMIC_MINOR, .name = "both", .fops = &both_fops },
	{ .minor = MISC_DYNAMIC_MINOR, .name = "public", .fops = &public_fops },
	{ .minor = MISC_DYNAMIC_MINOR, .name = "shared",
	  .fops = &shared_misc_fops },
};

static int __init __maybe_unused legacy_init(void)
{
	struct dentry *dir = debugfs_create_dir("legacy", NULL);
	size_t i;

	debugfs_create_file_size("size", 0400, dir, NULL, &size_fops, 16);
	debugfs_create_file_size("shared", 0400, dir, NULL, &shared_size_fops,
				 16);
	debugfs_create_file("mmap", 0400, dir, NULL, &mmap_fops);
	KIT_DEBUGFS_FILE("macro", dir, macro_fops);
	debugfs_create_file("both", 0400, dir, NULL, &both_fops);
	for (i = 0; i < ARRAY_SIZE(legacy_files); i++)
		debugfs_create_file(legacy_files[i].name, 0400, dir, NULL,
				    legacy_files[i].fops);
	keep_for_later(&stashed_fops);
	return 0;
}

MODULE_LICENSE("GPL");
