// SPDX-License-Identifier: GPL-2.0
/*
 * scripts/convert's test: functions and fields under #if, and a name
 * #defined NULL where its function isn't compiled (regmap-debugfs.c's
 * regmap_map_write_file).  Each line the tool adds (a guard, a helper)
 * gets the conditions of what it uses, the #define follows the name the
 * fops now names (no method where there was none), and a name it can't
 * follow (two definitions, a macro) stays legacy with that reason.  Both
 * branches are compiled: PREPRO_WRITE is defined, PREPRO_NO_WRITE not.
 */
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/uaccess.h>

#define PREPRO_WRITE
#undef PREPRO_NO_WRITE

static char regs[16];

static ssize_t regs_read(struct file *file, char __user *buf, size_t count,
			 loff_t *ppos)
{
	return simple_read_from_buffer(buf, count, ppos, regs, sizeof(regs));
}

#ifdef PREPRO_WRITE
static ssize_t regs_write(struct file *file, const char __user *buf,
			  size_t count, loff_t *ppos)
{
	return simple_write_to_buffer(regs, sizeof(regs), ppos, buf, count);
}
#else
#define regs_write NULL
#endif

/* debugfs: the write's guard under its #ifdef */
static const struct file_operations regs_fops = {
	.read		= regs_read,
	.write		= regs_write,
	.llseek		= default_llseek,
};

#ifdef PREPRO_NO_WRITE
static ssize_t ro_write(struct file *file, const char __user *buf,
			size_t count, loff_t *ppos)
{
	return simple_write_to_buffer(regs, sizeof(regs), ppos, buf, count);
}
#else
#define ro_write NULL
#endif

/* a misc device: the #define names ro_write_iter now */
static const struct file_operations ro_fops = {
	.write		= ro_write,
};

#if defined(PREPRO_WRITE) && !defined(PREPRO_NO_WRITE)
static ssize_t field_write(struct file *file, const char __user *buf,
			   size_t count, loff_t *ppos)
{
	return simple_write_to_buffer(regs, sizeof(regs), ppos, buf, count);
}
#endif

/* debugfs, a field under #if */
static const struct file_operations field_fops = {
	.read		= regs_read,
#if defined(PREPRO_WRITE) && !defined(PREPRO_NO_WRITE)
	.write		= field_write,
#endif
};

/* Two definitions, and a macro: stays legacy. */
#ifdef PREPRO_WRITE
static ssize_t twice_read(struct file *file, char __user *buf, size_t count,
			  loff_t *ppos)
{
	return simple_read_from_buffer(buf, count, ppos, regs, 4);
}
#else
static ssize_t twice_read(struct file *file, char __user *buf, size_t count,
			  loff_t *ppos)
{
	return simple_read_from_buffer(buf, count, ppos, regs, 8);
}
#endif

static ssize_t twice_write(struct file *file, const char __user *buf,
			   size_t count, loff_t *ppos)
{
	return simple_write_to_buffer(regs, sizeof(regs), ppos, buf, count);
}

#ifdef PREPRO_NO_WRITE
static ssize_t alias_write(struct file *file, const char __user *buf,
			   size_t count, loff_t *ppos)
{
	return simple_write_to_buffer(regs, sizeof(regs), ppos, buf, count);
}
#else
#define alias_write twice_write
#endif

static const struct file_operations twice_fops = {
	.read		= twice_read,
	.write		= alias_write,
};

static struct miscdevice ro_misc = {
	.minor		= MISC_DYNAMIC_MINOR,
	.name		= "kitconv-prepro",
	.fops		= &ro_fops,
};

static struct miscdevice twice_misc = {
	.minor		= MISC_DYNAMIC_MINOR,
	.name		= "kitconv-prepro-twice",
	.fops		= &twice_fops,
};

static int __maybe_unused prepro_init(struct dentry *dir)
{
	debugfs_create_file("regs", 0600, dir, NULL, &regs_fops);
	debugfs_create_file("field", 0600, dir, NULL, &field_fops);
	misc_register(&ro_misc);
	return misc_register(&twice_misc);
}

MODULE_LICENSE("GPL");
