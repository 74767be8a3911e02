/* The JNI library of NativeCalls.java: natives of every return type, callbacks into Java, and
 * exceptions both ways. Built by the agent suite: gcc -shared -fPIC -I$JDK/include
 * -I$JDK/include/linux -o libnativecalls.so native_calls.c */
#include <jni.h>

JNIEXPORT jint JNICALL Java_natives_NativeCalls_sum(JNIEnv *env, jclass cls, jintArray values) {
    (void)cls;
    jint n = (*env)->GetArrayLength(env, values);
    jint *xs = (*env)->GetIntArrayElements(env, values, NULL);
    jint sum = 0;
    for (jint i = 0; i < n; i++) sum += xs[i];
    (*env)->ReleaseIntArrayElements(env, values, xs, JNI_ABORT);
    return sum;
}

JNIEXPORT jboolean JNICALL Java_natives_NativeCalls_isEven(JNIEnv *env, jclass cls, jint n) {
    (void)env; (void)cls;
    return n % 2 == 0;
}

JNIEXPORT jbyte JNICALL Java_natives_NativeCalls_low(JNIEnv *env, jclass cls, jint n) {
    (void)env; (void)cls;
    return (jbyte)(n & 0xff);
}

JNIEXPORT jchar JNICALL Java_natives_NativeCalls_letter(JNIEnv *env, jclass cls, jint i) {
    (void)env; (void)cls;
    return (jchar)('a' + i);
}

JNIEXPORT jshort JNICALL Java_natives_NativeCalls_twice(JNIEnv *env, jclass cls, jshort s) {
    (void)env; (void)cls;
    return (jshort)(2 * s);
}

JNIEXPORT jfloat JNICALL Java_natives_NativeCalls_half(JNIEnv *env, jclass cls, jfloat f) {
    (void)env; (void)cls;
    return f / 2;
}

/* Calls o.toString(), which is instrumented Java. */
JNIEXPORT jstring JNICALL Java_natives_NativeCalls_describe(JNIEnv *env, jclass cls, jobject o) {
    (void)cls;
    jclass object = (*env)->FindClass(env, "java/lang/Object");
    jmethodID to_string = (*env)->GetMethodID(env, object, "toString", "()Ljava/lang/String;");
    return (jstring)(*env)->CallObjectMethod(env, o, to_string);
}

/* Calls calls.accept(i) for i < n, stopping at the first exception, which goes on to the caller. */
JNIEXPORT void JNICALL Java_natives_NativeCalls_visit(JNIEnv *env, jclass cls, jobject calls, jint n) {
    jmethodID accept = (*env)->GetMethodID(env, cls, "accept", "(I)V");
    for (jint i = 0; i < n; i++) {
        (*env)->CallVoidMethod(env, calls, accept, i);
        if ((*env)->ExceptionCheck(env)) return;
    }
}

JNIEXPORT void JNICALL Java_natives_NativeCalls_fail(JNIEnv *env, jclass cls, jstring message) {
    (void)cls;
    const char *text = (*env)->GetStringUTFChars(env, message, NULL);
    jclass illegal_state = (*env)->FindClass(env, "java/lang/IllegalStateException");
    (*env)->ThrowNew(env, illegal_state, text);
    (*env)->ReleaseStringUTFChars(env, message, text);
}

/* Sums this.weight(i) for i < 3, times factor. */
JNIEXPORT jlong JNICALL Java_natives_NativeCalls_weighted(JNIEnv *env, jobject self, jlong factor) {
    jclass cls = (*env)->GetObjectClass(env, self);
    jmethodID weight = (*env)->GetMethodID(env, cls, "weight", "(I)I");
    jlong sum = 0;
    for (jint i = 0; i < 3; i++) sum += (*env)->CallIntMethod(env, self, weight, i);
    return sum * factor;
}

JNIEXPORT jdouble JNICALL Java_natives_NativeCalls_mean(JNIEnv *env, jobject self, jdouble a, jdouble b) {
    (void)env; (void)self;
    return (a + b) / 2;
}

/* A new NativeCalls(base + 1), through its private constructor. */
JNIEXPORT jobject JNICALL Java_natives_NativeCalls_next(JNIEnv *env, jobject self) {
    jclass cls = (*env)->GetObjectClass(env, self);
    jfieldID base = (*env)->GetFieldID(env, cls, "base", "I");
    jmethodID init = (*env)->GetMethodID(env, cls, "<init>", "(I)V");
    return (*env)->NewObject(env, cls, init, (*env)->GetIntField(env, self, base) + 1);
}

static jint triple(JNIEnv *env, jclass cls, jint n) {
    (void)env; (void)cls;
    return 3 * n;
}

JNIEXPORT jint JNICALL JNI_OnLoad(JavaVM *vm, void *reserved) {
    (void)reserved;
    JNIEnv *env;
    if ((*vm)->GetEnv(vm, (void **)&env, JNI_VERSION_1_8) != JNI_OK) return JNI_ERR;
    jclass cls = (*env)->FindClass(env, "natives/NativeCalls");
    if (!cls) return JNI_ERR;
    JNINativeMethod methods[] = {{"registered", "(I)I", (void *)triple}};
    if ((*env)->RegisterNatives(env, cls, methods, 1) != 0) return JNI_ERR;
    return JNI_VERSION_1_8;
}
