/* Small portability and annotation helpers shared by every module. */
#ifndef USERNFSD_COMPILER_H
#define USERNFSD_COMPILER_H

#define PRINTFLIKE(f, a) __attribute__((format(printf, f, a)))
#define NORETURN __attribute__((noreturn))
#define UNUSED __attribute__((unused))
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#endif
