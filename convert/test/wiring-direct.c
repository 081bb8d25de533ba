// SPDX-License-Identifier: GPL-2.0
/*
 * scripts/convert's test: fops registered in ways that take .read_iter and
 * .write_iter as they are, each found where the converter must look for
 * it: a misc device (an initializer, a member of our own struct, a
 * macro's initializer, an assignment), cdev_init() and register_chrdev()
 * (directly, through a function of ours, through a table), an anonymous
 * inode, procfs, a USB class driver, debugfs_create_file_unsafe() (no
 * proxy: nothing to add).  And debugfs_create_file(), whose proxy passes
 * .read/.write only: those fops move to _unsafe, each method guarded, with
 * .owner added where missing, a table's fops all together.  All converted.
 */
#include <linux/anon_inodes.h>
#include <linux/cdev.h>
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/poll.h>
#include <linux/proc_fs.h>
#include <linux/uaccess.h>
#include <linux/usb.h>

static char data[16];

static ssize_t data_read(struct file *file, char __user *buf, size_t count,
			 loff_t *ppos)
{
	return simple_read_from_buffer(buf, count, ppos, data, sizeof(data));
}

static ssize_t data_write(struct file *file, const char __user *buf,
			  size_t count, loff_t *ppos)
{
	return simple_write_to_buffer(data, sizeof(data), ppos, buf, count);
}


static ssize_t nested_read(struct file *file, char __user *buf, size_t count,
			   loff_t *ppos)
{
	return simple_read_from_buffer(buf, count, ppos, data, 4);
}

static ssize_t assigned_read(struct file *file, char __user *buf,
			     size_t count, loff_t *ppos)
{
	return simple_read_from_buffer(buf, count, ppos, data, 5);
}

static ssize_t macro_read(struct file *file, char __user *buf, size_t count,
			  loff_t *ppos)
{
	return simple_read_from_buffer(buf, count, ppos, data, 6);
}

static ssize_t cdev_read(struct file *file, char __user *buf, size_t count,
			 loff_t *ppos)
{
	return simple_read_from_buffer(buf, count, ppos, data, 7);
}

static ssize_t chrdev_read(struct file *file, char __user *buf, size_t count,
			   loff_t *ppos)
{
	return simple_read_from_buffer(buf, count, ppos, data, 8);
}

static ssize_t helper_read(struct file *file, char __user *buf, size_t count,
			   loff_t *ppos)
{
	return simple_read_from_buffer(buf, count, ppos, data, 9);
}

static ssize_t table_read(struct file *file, char __user *buf, size_t count,
			  loff_t *ppos)
{
	return simple_read_from_buffer(buf, count, ppos, data, 10);
}

static ssize_t anon_read(struct file *file, char __user *buf, size_t count,
			 loff_t *ppos)
{
	return simple_read_from_buffer(buf, count, ppos, data, 11);
}

static ssize_t proc_read(struct file *file, char __user *buf, size_t count,
			 loff_t *ppos)
{
	return simple_read_from_buffer(buf, count, ppos, data, 12);
}

static ssize_t usb_read(struct file *file, char __user *buf, size_t count,
			loff_t *ppos)
{
	return simple_read_from_buffer(buf, count, ppos, data, 13);
}

static ssize_t unsafe_read(struct file *file, char __user *buf, size_t count,
			   loff_t *ppos)
{
	return simple_read_from_buffer(buf, count, ppos, data, 14);
}

static ssize_t dbg_write(struct file *file, const char __user *buf,
			 size_t count, loff_t *ppos)
{
	if (count > sizeof(data))
		return -EINVAL;
	if (copy_from_user(data, buf, count))
		return -EFAULT;
	return count;
}

static ssize_t first_read(struct file *file, char __user *buf, size_t count,
			  loff_t *ppos)
{
	return simple_read_from_buffer(buf, count, ppos, data, 2);
}

static ssize_t second_read(struct file *file, char __user *buf, size_t count,
			   loff_t *ppos)
{
	return simple_read_from_buffer(buf, count, ppos, data, 3);
}

static __poll_t dbg_poll(struct file *file, poll_table *wait)
{
	return EPOLLIN | EPOLLRDNORM;
}

static long dbg_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	return -ENOTTY;
}

static loff_t dbg_llseek(struct file *file, loff_t offset, int whence)
{
	return fixed_size_llseek(file, offset, whence, sizeof(data));
}

static const struct file_operations nested_fops = {
	.owner		= THIS_MODULE,
	.read		= nested_read,
};

static const struct file_operations assigned_fops = {
	.owner		= THIS_MODULE,
	.read		= assigned_read,
};

static const struct file_operations macro_fops = {
	.owner		= THIS_MODULE,
	.read		= macro_read,
};

static const struct file_operations cdev_fops = {
	.owner		= THIS_MODULE,
	.read		= cdev_read,
};

static const struct file_operations chrdev_fops = {
	.owner		= THIS_MODULE,
	.read		= chrdev_read,
	.write		= data_write,
};

static const struct file_operations helper_fops = {
	.owner		= THIS_MODULE,
	.read		= helper_read,
};

static const struct file_operations table_fops = {
	.owner		= THIS_MODULE,
	.read		= table_read,
};

static const struct file_operations anon_fops = {
	.owner		= THIS_MODULE,
	.read		= anon_read,
};

static const struct proc_ops data_proc_ops = {
	.proc_read	= proc_read,
};

static const struct file_operations usb_fops = {
	.owner		= THIS_MODULE,
	.read		= usb_read,
};

/* _unsafe already: the fops are the file's; the driver guards itself. */
static const struct file_operations unsafe_fops = {
	.owner		= THIS_MODULE,
	.read		= unsafe_read,
};

/* debugfs' proxy: guarded under _unsafe, every method, .owner added. */
static const struct file_operations dbg_fops = {
	.open		= simple_open,
	.read		= data_read,
	.write		= dbg_write,
	.poll		= dbg_poll,
	.unlocked_ioctl	= dbg_ioctl,
	.llseek		= dbg_llseek,
};

/* Two fops through one debugfs_create_file(): they move together. */
static const struct file_operations first_fops = {
	.owner		= THIS_MODULE,
	.read		= first_read,
	.llseek		= default_llseek,
};

static const struct file_operations second_fops = {
	.owner		= THIS_MODULE,
	.read		= second_read,
	.llseek		= default_llseek,
};

static const struct dbg_file {
	const char			*name;
	const struct file_operations	*fops;
} dbg_files[] = {
	{ "first",	&first_fops },
	{ "second",	&second_fops },
};

struct wiring_dev {
	struct miscdevice	misc;
	struct cdev		cdev;
};

static struct wiring_dev nested_dev __maybe_unused = {
	.misc = {
		.minor	= MISC_DYNAMIC_MINOR,
		.name	= "nested",
		.fops	= &nested_fops,
	},
};

#define KIT_MISC(n, f) { .minor = MISC_DYNAMIC_MINOR, .name = n, .fops = &f }

static struct miscdevice macro_misc[] __maybe_unused = {
	KIT_MISC("macro", macro_fops),
};

static const struct chrdev_table {
	const char			*name;
	const struct file_operations	*fops;
} chrdevs[] = {
	{ "table", &table_fops },
};

static struct usb_class_driver usb_class __maybe_unused = {
	.name		= "wiring%d",
	.fops		= &usb_fops,
};

static void __maybe_unused helper_setup(struct cdev *cdev,
					const struct file_operations *fops)
{
	cdev_init(cdev, fops);
}

static int __init __maybe_unused wiring_init(struct wiring_dev *d)
{
	struct dentry *dir = debugfs_create_dir("wiring", NULL);
	const struct chrdev_table *t = &chrdevs[0];
	size_t i;

	d->misc.fops = &assigned_fops;
	cdev_init(&d->cdev, &cdev_fops);
	helper_setup(&d->cdev, &helper_fops);
	register_chrdev(0, "chrdev", &chrdev_fops);
	register_chrdev(0, t->name, t->fops);
	anon_inode_getfd("wiring", &anon_fops, NULL, O_RDWR);
	proc_create_data("wiring", 0444, NULL, &data_proc_ops, NULL);
	debugfs_create_file_unsafe("unsafe", 0444, dir, NULL, &unsafe_fops);
	debugfs_create_file("dbg", 0600, dir, NULL, &dbg_fops);
	for (i = 0; i < ARRAY_SIZE(dbg_files); i++)
		debugfs_create_file(dbg_files[i].name, 0400, dir, NULL,
				    dbg_files[i].fops);
	return 0;
}

MODULE_LICENSE("GPL");
