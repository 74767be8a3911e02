/*
 * A stand-in for Windows' bcryptprimitives.dll, for the cross suite's runs under Wine only.
 *
 * Rust's standard library for Windows 10 and later draws random numbers (hash map seeds) with
 * ProcessPrng from bcryptprimitives.dll, which every Windows since 10 has. Debian 12's Wine 8.0
 * does not provide that DLL yet, so no Rust program of today starts under it. This implements the
 * one function with Wine's RtlGenRandom (advapi32's SystemFunction036); it is installed into the
 * suite's own Wine prefix and never ships.
 */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T size) {
    while (size > 0) {
        ULONG chunk = size > 0x10000000 ? 0x10000000 : (ULONG)size;
        if (!SystemFunction036(data, chunk)) {
            return FALSE;
        }
        data += chunk;
        size -= chunk;
    }
    return TRUE;
}
