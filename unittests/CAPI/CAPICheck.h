/*===- CAPICheck.h - Checks shared by the C API test's scenarios -----------===
 *
 * The scenarios of CAPITest live in several C files (one executable): the
 * count of failed checks is CAPITest.c's.
 *
 *===----------------------------------------------------------------------===*/
#ifndef KILN_UNITTESTS_CAPI_CAPICHECK_H
#define KILN_UNITTESTS_CAPI_CAPICHECK_H

#include "kiln/kiln.h"

#include <stdio.h>
#include <string.h>

extern int failures;

#define CHECK(cond)                                                            \
  do {                                                                         \
    if (!(cond)) {                                                             \
      fprintf(stderr, "%s:%d: CHECK failed: %s\n  last error: %s\n",          \
              __FILE__, __LINE__, #cond, kiln_last_error());                   \
      ++failures;                                                              \
    }                                                                          \
  } while (0)

#define CHECK_OK(call) CHECK((call) == KILN_OK)
#define CHECK_STATUS(call, status) CHECK((call) == (status))
#define CHECK_CONTAINS(text, needle)                                           \
  do {                                                                         \
    const char *t_ = (text);                                                   \
    if (!t_ || !strstr(t_, (needle))) {                                        \
      fprintf(stderr, "%s:%d: expected \"%s\" in:\n%s\n", __FILE__, __LINE__,  \
              (needle), t_ ? t_ : "(null)");                                   \
      ++failures;                                                              \
    }                                                                          \
  } while (0)

/* Writes `text` to `path` (relative to the test's working directory). */
void writeFile(const char *path, const char *text);

/* Scenarios defined outside CAPITest.c. */
void testBindings(void);
void testHostImports(void);

#endif
