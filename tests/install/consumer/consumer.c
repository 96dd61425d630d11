/* Links the installed library and checks its version matches the installed header. */
#include <asyncgemm.h>
#include <stdio.h>

int main(void) {
    int major = -1, minor = -1, patch = -1;
    asyncgemm_get_version(&major, &minor, &patch);
    printf("asyncgemm %d.%d.%d\n", major, minor, patch);
    return major == ASYNCGEMM_VERSION_MAJOR && minor == ASYNCGEMM_VERSION_MINOR ? 0 : 1;
}
