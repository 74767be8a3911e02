/*
 * The overhead benchmark's JVMTI method entry/exit tracer: the cheapest thing a JVMTI-based exact
 * profiler must do. It asks for MethodEntry and MethodExit events for every method and, in each,
 * does no more than count the event and track the thread's call depth in native thread-local
 * storage. A real tracer (the counting oracle in integration-tests/oracle, hprof's cpu=times)
 * would also build a tree, so this is a lower bound on their cost.
 *
 * Most of the cost is not in the callbacks: with these capabilities HotSpot runs every method in
 * the interpreter, since compiled code posts no such events.
 *
 * At VM death it prints one line on stderr:
 *   jvmti-tracer: entries=N exits=N
 * (threads still running at that point are not counted).
 */
#include <jvmti.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

static atomic_long total_entries;
static atomic_long total_exits;
static __thread long thread_entries;
static __thread long thread_exits;
static __thread long thread_depth;

static void flush_thread(void) {
    atomic_fetch_add(&total_entries, thread_entries);
    atomic_fetch_add(&total_exits, thread_exits);
    thread_entries = 0;
    thread_exits = 0;
}

static void JNICALL on_entry(jvmtiEnv *jvmti, JNIEnv *jni, jthread thread, jmethodID method) {
    (void)jvmti, (void)jni, (void)thread, (void)method;
    thread_entries++;
    thread_depth++;
}

static void JNICALL on_exit(jvmtiEnv *jvmti, JNIEnv *jni, jthread thread, jmethodID method,
                            jboolean by_exception, jvalue value) {
    (void)jvmti, (void)jni, (void)thread, (void)method, (void)by_exception, (void)value;
    thread_exits++;
    thread_depth--;
}

static void JNICALL on_thread_end(jvmtiEnv *jvmti, JNIEnv *jni, jthread thread) {
    (void)jvmti, (void)jni, (void)thread;
    flush_thread();
}

static void JNICALL on_death(jvmtiEnv *jvmti, JNIEnv *jni) {
    (void)jvmti, (void)jni;
    flush_thread();
    fprintf(stderr, "jvmti-tracer: entries=%ld exits=%ld\n", atomic_load(&total_entries),
            atomic_load(&total_exits));
}

static int check(jvmtiError error, const char *what) {
    if (error == JVMTI_ERROR_NONE) return 0;
    fprintf(stderr, "jvmti-tracer: %s failed (JVMTI error %d)\n", what, (int)error);
    return 1;
}

JNIEXPORT jint JNICALL Agent_OnLoad(JavaVM *vm, char *options, void *reserved) {
    (void)options, (void)reserved;
    jvmtiEnv *jvmti;
    if ((*vm)->GetEnv(vm, (void **)&jvmti, JVMTI_VERSION_1_2) != JNI_OK) {
        fprintf(stderr, "jvmti-tracer: no JVMTI 1.2 environment\n");
        return JNI_ERR;
    }
    jvmtiCapabilities capabilities;
    memset(&capabilities, 0, sizeof capabilities);
    capabilities.can_generate_method_entry_events = 1;
    capabilities.can_generate_method_exit_events = 1;
    if (check((*jvmti)->AddCapabilities(jvmti, &capabilities), "AddCapabilities")) return JNI_ERR;
    jvmtiEventCallbacks callbacks;
    memset(&callbacks, 0, sizeof callbacks);
    callbacks.MethodEntry = on_entry;
    callbacks.MethodExit = on_exit;
    callbacks.ThreadEnd = on_thread_end;
    callbacks.VMDeath = on_death;
    if (check((*jvmti)->SetEventCallbacks(jvmti, &callbacks, sizeof callbacks), "SetEventCallbacks"))
        return JNI_ERR;
    jvmtiEvent events[] = {JVMTI_EVENT_METHOD_ENTRY, JVMTI_EVENT_METHOD_EXIT, JVMTI_EVENT_THREAD_END,
                           JVMTI_EVENT_VM_DEATH};
    for (size_t i = 0; i < sizeof events / sizeof events[0]; i++) {
        if (check((*jvmti)->SetEventNotificationMode(jvmti, JVMTI_ENABLE, events[i], NULL),
                  "SetEventNotificationMode"))
            return JNI_ERR;
    }
    return JNI_OK;
}
