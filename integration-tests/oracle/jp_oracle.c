/*
 * jp_oracle: the counting oracle of JP's integration tests.
 *
 * A JVMTI agent that records the exact calling-context tree (CCT) of an *uninstrumented* program,
 * restricted to the frames of the selected classes, and writes it in folded form at VMDeath:
 *
 *   <out>.calls.folded      one line per context: "frame;frame;frame calls"
 *   <out>.bytecodes.folded  the same contexts: "frame;frame;frame bytecodes"
 *   <out>.lines             per source line of each method, over all its contexts:
 *                           "frame line bytecodes" (with the bytecodes metric)
 *   <out>.allocations.folded  per context and allocated type: "frame;frame;frame type count",
 *                           for every new, newarray, anewarray and multianewarray stepped
 *                           (with the bytecodes metric); only contexts that allocated
 *   <out>.opcodes.folded    per context and kind of instruction: "frame;frame;frame kind count",
 *                           for every monitorenter, athrow, array load (iaload to saload: kind
 *                           array-load) and array store (array-store) stepped (with the
 *                           bytecodes metric), the kinds JP's probes choose; only contexts that ran one
 *
 * Each line holds the context's own (self) value. A frame is written
 * binary.class.Name.method(Descriptor), for example demo.Fig4.g(I)V. Lines are sorted bytewise.
 * Every context appears in both files, also when its value there is 0.
 *
 * How the tree is built:
 *   - MethodEntry / MethodExit of every method drive a per-thread shadow stack (kept in JVMTI
 *     thread-local storage). A frame of a selected method gets its own node under the node of the
 *     nearest selected frame below it; a frame of any other method (JDK, lambda classes, proxies,
 *     reflection) only repeats that node, so a callback from the JDK hangs under the nearest
 *     selected frame. A static initializer (<clinit>) hangs under the thread's root.
 *   - MethodExit pops one frame, whether the frame returned or was popped by an exception. The
 *     popped frame is checked against the exiting method; should an exit ever be missing, the
 *     stack is cut back to the matching frame and a warning counted.
 *   - SingleStep, posted before each bytecode, adds 1 to the node of the top frame when the
 *     stepped method is selected.
 *   - Every counted bytecode is also counted at its bci, per method; at VMDeath each bci is
 *     mapped to its line through GetLineNumberTable (the entry with the greatest start at or
 *     before it, the last of entries that start alike), and the lines summed.
 *   - A counted bytecode that allocates (new, newarray, anewarray, multianewarray) also counts
 *     one allocation of its type in the context: the type from the constant pool (or newarray's
 *     atype), named as Java source writes it (java.lang.String, int[], java.lang.Object[][]).
 *     One of the kinds of <out>.opcodes.folded counts one of its kind in the context alike.
 *   - Each thread has its own tree; at ThreadEnd and at VMDeath the trees are merged into one
 *     global tree by frame path.
 *
 * HotSpot facts the agent works around (see README.md next to this file):
 *   1. HotSpot does not post a SingleStep event at the same (method, bci) as the previous one
 *      posted on the thread (JvmtiEnvThreadState::compare_and_set_current_location). Two
 *      executions of one location in a row are real in recursion: the callee's last bytecode and
 *      the caller's next one can be the same `return` of the same method. The agent tracks the
 *      last posted location and adds the step HotSpot swallows, at MethodEntry (first bytecode),
 *      at a normal MethodExit (the caller's next bytecode after the invoke) and at ExceptionCatch
 *      (the handler's first bytecode).
 *   2. HotSpot posts no SingleStep events while it resolves a constant-pool entry, and a class
 *      initialised by a first getstatic/putstatic/invokestatic runs its <clinit> inside that
 *      resolution. With init=demand (the default) the agent looks at each such bytecode of a
 *      selected method before it runs and, when it names another selected class, initialises
 *      that class first through Class.forName(name, true, loader). The order of initialisation
 *      stays the program's own; only the trigger changes. A selected invocation that saw no
 *      SingleStep at all is reported as a warning.
 *   3. Hidden classes (lambda classes, whose JVMTI signature contains a '.') are never selected,
 *      nor are names containing "$$Lambda" or "$Proxy" (runtime-generated, never on disk).
 *   4. Native methods of selected classes are not selected (JP's build-time instrumentation
 *      cannot reach them), unless natives=on: then each is a context with its calls and no
 *      bytecodes, and what it calls back hangs under it (as under JP's load-time agent, which
 *      wraps natives). MethodEntry and MethodExit are posted for native methods too.
 *   5. HotSpot's interpreter fuses frequent bytecode pairs once they have run (iload followed by
 *      iload becomes fast_iload2, aload_0 followed by getfield becomes fast_?access_0, ...) and
 *      posts one SingleStep for the fused pair. The JVM must run with -XX:-RewriteFrequentPairs
 *      (integration-tests/lib/jptest/oracle.py passes it), or the second bytecode of each pair
 *      goes uncounted.
 *
 * Options (the agent string, items separated by ','; an item without '=' continues the list of
 * the option before it, so "include=a.,b." selects both prefixes):
 *   include=P1;P2      class-name prefixes (binary names, with dots) to select; required.
 *   exclude=S1;S2      more substrings that exclude a class name.
 *   out=PREFIX         output prefix (default "jp-oracle").
 *   metrics=M          calls, bytecodes, or both (the default; "calls,bytecodes" or "calls+bytecodes").
 *                      With calls only, no SingleStep events are requested at all (much faster).
 *   init=demand|off    see fact 2 above (default demand).
 *   sites=on|off       split each context by the call site it was called from (default off), as
 *                      JP's --call-sites does: the bci of the invoke in the frame right below,
 *                      when that frame is a counted one (not when uninstrumented code is between
 *                      them), never for a static initializer; folded frames then end with
 *                      " @ line N" (the caller's line at that bci) or " @ bci N" without one.
 *                      Needs the bytecodes metric (single stepping tells the invoke's bci).
 *   natives=on|off     see fact 4 above (default off).
 *   start=recording|paused  whether activations are counted from the start (default recording),
 *                      as the runtime's jp.start. Entering org.jpprof.runtime.JP.start() or stop()
 *                      switches it, as it switches the runtime's recording: an activation of a
 *                      selected method is counted, whole, when it began while recording; one
 *                      begun while stopped makes no context, like an unselected frame.
 *   verbose            a statistics line on stderr at the end.
 * Warnings (stderr, "jp-oracle: warning: ...") mean the counts are not to be trusted.
 *
 * Build: gcc -O2 -shared -fPIC -I$JAVA_HOME/include -I$JAVA_HOME/include/linux -o libjp_oracle.so jp_oracle.c -lpthread
 */
#include <jvmti.h>
#include <jni.h>

#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ------------------------------------------------------------------------------------------ */
/* Options                                                                                    */

#define MAX_PATTERNS 64

static char *g_include[MAX_PATTERNS];
static int g_include_count;
static char *g_exclude[MAX_PATTERNS];
static int g_exclude_count;
static char *g_out = "jp-oracle";
static int g_want_calls = 1;
static int g_want_bytecodes = 1;
static int g_init_demand = 1;
static int g_sites = 0;
static int g_natives = 0;
static int g_verbose = 0;
/* Whether activations begun now are counted: JP.start() and JP.stop() switch it, as they switch
 * the runtime's recording; start=paused begins stopped, as jp.start=paused does. */
static volatile int g_recording = 1;

/* ------------------------------------------------------------------------------------------ */
/* Globals                                                                                    */

static jvmtiEnv *g_jvmti;
static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static volatile int g_dead;
static jclass g_class_class;     /* java.lang.Class, global ref */
static jmethodID g_for_name;     /* Class.forName(String, boolean, ClassLoader) */
static struct timespec g_start;

/* Statistics and warnings (updated racily where harmless; they are diagnostics). */
static volatile long g_stat_threads, g_stat_entries, g_stat_steps, g_stat_synth_entry,
    g_stat_synth_return, g_stat_synth_catch, g_stat_forced_init;
static volatile long g_warn_count;
#define MAX_WARN_TEXT 40
static char *g_warn_text[MAX_WARN_TEXT];
static int g_warn_text_count;

static void warn(const char *fmt, ...) {
    char buf[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    pthread_mutex_lock(&g_lock);
    g_warn_count++;
    if (g_warn_text_count < MAX_WARN_TEXT) g_warn_text[g_warn_text_count++] = strdup(buf);
    pthread_mutex_unlock(&g_lock);
}

static void fatal(const char *what, jvmtiError err) {
    fprintf(stderr, "jp-oracle: %s failed (JVMTI error %d)\n", what, (int)err);
    exit(70);
}

static void *xmalloc(size_t n) {
    void *p = calloc(1, n);
    if (!p) {
        fprintf(stderr, "jp-oracle: out of memory\n");
        exit(70);
    }
    return p;
}

/* ------------------------------------------------------------------------------------------ */
/* Frames: interned "binary.Name.method(Descriptor)" strings; nodes refer to them by index.   */

static char **g_frames;
static int g_frame_count, g_frame_cap;
static int *g_frame_hash; /* open addressing, -1 = empty */
static int g_frame_hash_cap;

static uint64_t hash_str(const char *s) {
    uint64_t h = 1469598103934665603ULL;
    while (*s) h = (h ^ (unsigned char)*s++) * 1099511628211ULL;
    return h;
}

/* Called with g_lock held. Takes ownership of s. */
static int intern_frame(char *s) {
    if (g_frame_hash_cap == 0 || g_frame_count * 2 >= g_frame_hash_cap) {
        int cap = g_frame_hash_cap ? g_frame_hash_cap * 2 : 1024;
        int *h = xmalloc(sizeof(int) * cap);
        for (int i = 0; i < cap; i++) h[i] = -1;
        for (int i = 0; i < g_frame_count; i++) {
            uint64_t j = hash_str(g_frames[i]) & (cap - 1);
            while (h[j] >= 0) j = (j + 1) & (cap - 1);
            h[j] = i;
        }
        free(g_frame_hash);
        g_frame_hash = h;
        g_frame_hash_cap = cap;
    }
    uint64_t j = hash_str(s) & (g_frame_hash_cap - 1);
    while (g_frame_hash[j] >= 0) {
        if (strcmp(g_frames[g_frame_hash[j]], s) == 0) {
            free(s);
            return g_frame_hash[j];
        }
        j = (j + 1) & (g_frame_hash_cap - 1);
    }
    if (g_frame_count == g_frame_cap) {
        g_frame_cap = g_frame_cap ? g_frame_cap * 2 : 1024;
        g_frames = realloc(g_frames, sizeof(char *) * g_frame_cap);
        if (!g_frames) fatal("realloc", 0);
    }
    g_frames[g_frame_count] = s;
    g_frame_hash[j] = g_frame_count;
    return g_frame_count++;
}

/* ------------------------------------------------------------------------------------------ */
/* Methods: what the agent knows about a jmethodID. Created once, never freed.                */

typedef struct MethodInfo {
    jmethodID id;
    int frame;            /* interned frame, or -1 when not selected */
    uint8_t selected;
    uint8_t is_clinit;
    uint8_t is_native;    /* selected with natives=on: runs no bytecodes of its own */
    int8_t control;       /* +1 for JP.start(), -1 for JP.stop() (org.jpprof.runtime.JP), else 0 */
    /* bytecodes, loaded lazily (selected methods only) */
    volatile int code_loaded;
    int code_len;
    unsigned char *code;
    uint8_t *init_checked; /* per bci: the class-initialisation check was done */
    uint64_t *steps_at;    /* per bci: bytecodes counted there, by every thread (atomic adds) */
    int *alloc_type;       /* per bci: 0 not looked at yet, -1 nothing counted, else its event + 1:
                              an allocated type, or OPCODE_PREFIX and a kind of instruction */
    char *class_internal;  /* declaring class, internal form (selected methods only) */
} MethodInfo;

static MethodInfo **g_methods; /* open addressing by jmethodID */
static size_t g_method_count, g_method_cap;

static size_t hash_ptr(const void *p, size_t cap) {
    uint64_t x = (uint64_t)(uintptr_t)p;
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    return (size_t)x & (cap - 1);
}

static int name_selected(const char *binary_name) {
    for (int i = 0; i < g_exclude_count; i++)
        if (strstr(binary_name, g_exclude[i])) return 0;
    if (strstr(binary_name, "$$Lambda") || strstr(binary_name, "$Proxy")) return 0;
    for (int i = 0; i < g_include_count; i++)
        if (strncmp(binary_name, g_include[i], strlen(g_include[i])) == 0) return 1;
    return 0;
}

/* Internal name from a class signature "Lpkg/Name;": returns malloc'd "pkg/Name", or NULL for
 * arrays, primitives and hidden classes (whose signature holds a '.'). */
static char *internal_from_signature(const char *sig) {
    size_t n = strlen(sig);
    if (n < 3 || sig[0] != 'L' || sig[n - 1] != ';') return NULL;
    if (memchr(sig, '.', n)) return NULL;
    char *s = xmalloc(n - 1);
    memcpy(s, sig + 1, n - 2);
    s[n - 2] = 0;
    return s;
}

static char *dotted(const char *internal) {
    char *s = strdup(internal);
    for (char *p = s; *p; p++)
        if (*p == '/') *p = '.';
    return s;
}

/* Called with g_lock held. */
static MethodInfo *create_method_info(jmethodID id) {
    MethodInfo *mi = xmalloc(sizeof *mi);
    mi->id = id;
    mi->frame = -1;
    jclass klass = NULL;
    char *sig = NULL, *name = NULL, *desc = NULL;
    jint mods = 0;
    if ((*g_jvmti)->GetMethodDeclaringClass(g_jvmti, id, &klass) != JVMTI_ERROR_NONE) return mi;
    if ((*g_jvmti)->GetClassSignature(g_jvmti, klass, &sig, NULL) == JVMTI_ERROR_NONE) {
        char *internal = internal_from_signature(sig);
        if (internal && strcmp(internal, "org/jpprof/runtime/JP") == 0 &&
            (*g_jvmti)->GetMethodName(g_jvmti, id, &name, &desc, NULL) == JVMTI_ERROR_NONE &&
            strcmp(desc, "()V") == 0)
            mi->control = strcmp(name, "start") == 0 ? 1 : strcmp(name, "stop") == 0 ? -1 : 0;
        if (internal) {
            char *binary = dotted(internal);
            if (name_selected(binary) &&
                (*g_jvmti)->GetMethodModifiers(g_jvmti, id, &mods) == JVMTI_ERROR_NONE &&
                (g_natives || !(mods & 0x0100 /* ACC_NATIVE */)) &&
                (name || (*g_jvmti)->GetMethodName(g_jvmti, id, &name, &desc, NULL) == JVMTI_ERROR_NONE)) {
                size_t len = strlen(binary) + strlen(name) + strlen(desc) + 2;
                char *frame = xmalloc(len);
                snprintf(frame, len, "%s.%s%s", binary, name, desc);
                mi->frame = intern_frame(frame);
                mi->selected = 1;
                mi->is_clinit = strcmp(name, "<clinit>") == 0;
                mi->is_native = (mods & 0x0100) != 0;
                mi->class_internal = internal;
                internal = NULL;
            }
            free(binary);
            free(internal);
        }
    }
    if (sig) (*g_jvmti)->Deallocate(g_jvmti, (unsigned char *)sig);
    if (name) (*g_jvmti)->Deallocate(g_jvmti, (unsigned char *)name);
    if (desc) (*g_jvmti)->Deallocate(g_jvmti, (unsigned char *)desc);
    return mi;
}

static MethodInfo *global_method_info(jmethodID id) {
    pthread_mutex_lock(&g_lock);
    if (g_method_cap == 0 || g_method_count * 2 >= g_method_cap) {
        size_t cap = g_method_cap ? g_method_cap * 2 : 4096;
        MethodInfo **t = xmalloc(sizeof(MethodInfo *) * cap);
        for (size_t i = 0; i < g_method_cap; i++) {
            if (!g_methods[i]) continue;
            size_t j = hash_ptr(g_methods[i]->id, cap);
            while (t[j]) j = (j + 1) & (cap - 1);
            t[j] = g_methods[i];
        }
        free(g_methods);
        g_methods = t;
        g_method_cap = cap;
    }
    size_t j = hash_ptr(id, g_method_cap);
    while (g_methods[j]) {
        if (g_methods[j]->id == id) {
            MethodInfo *mi = g_methods[j];
            pthread_mutex_unlock(&g_lock);
            return mi;
        }
        j = (j + 1) & (g_method_cap - 1);
    }
    MethodInfo *mi = create_method_info(id);
    g_methods[j] = mi;
    g_method_count++;
    pthread_mutex_unlock(&g_lock);
    return mi;
}

/* Loads the bytecodes of a selected method (GetBytecodes gives the original opcodes and
 * constant-pool indices, matching GetConstantPool). */
static void load_code(MethodInfo *mi) {
    if (mi->code_loaded) return;
    pthread_mutex_lock(&g_lock);
    if (!mi->code_loaded) {
        jint len = 0;
        unsigned char *bytes = NULL;
        if ((*g_jvmti)->GetBytecodes(g_jvmti, mi->id, &len, &bytes) == JVMTI_ERROR_NONE) {
            mi->code = xmalloc(len + 8); /* padded: operands are read without bounds checks */
            memcpy(mi->code, bytes, len);
            mi->code_len = len;
            mi->init_checked = xmalloc(len + 1);
            mi->steps_at = xmalloc(sizeof(uint64_t) * (len + 1));
            mi->alloc_type = xmalloc(sizeof(int) * (len + 1));
            (*g_jvmti)->Deallocate(g_jvmti, bytes);
        } else {
            mi->code = xmalloc(8);
            mi->init_checked = xmalloc(1);
            mi->steps_at = xmalloc(sizeof(uint64_t));
            mi->alloc_type = xmalloc(sizeof(int));
        }
        __atomic_store_n(&mi->code_loaded, 1, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&g_lock);
}

static int opcode_at(MethodInfo *mi, int bci) {
    load_code(mi);
    if (bci < 0 || bci >= mi->code_len) return -1;
    return mi->code[bci];
}

static int is_invoke(int op) { return op >= 0xb6 && op <= 0xba; }
static int invoke_length(int op) { return (op == 0xb9 || op == 0xba) ? 5 : 3; }

/* ------------------------------------------------------------------------------------------ */
/* Calling-context tree                                                                       */

/* The count of one event (an allocated type, a kind of instruction) in a context: a list, as a
 * context counts few events. */
typedef struct Alloc {
    int type;           /* interned event name */
    uint64_t count;
    struct Alloc *next;
} Alloc;

typedef struct Node {
    int frame;
    int32_t site;            /* sites=on: the bci of the invoke that called this context, or -1 */
    MethodInfo *site_caller; /* the method of that invoke, for its line */
    uint64_t calls;
    uint64_t bytecodes;
    Alloc *allocs;
    struct Node *child;   /* first child */
    struct Node *sibling; /* next sibling */
} Node;

/* Finds or creates the child of parent for frame. A new child is fully built before it is
 * linked in, so a reader on another thread (VMDeath) sees either the old or the new list. */
static Node *child_of(Node *parent, int frame, int32_t site, MethodInfo *site_caller) {
    for (Node *c = parent->child; c; c = c->sibling)
        if (c->frame == frame && c->site == site) return c;
    Node *c = xmalloc(sizeof *c);
    c->frame = frame;
    c->site = site;
    c->site_caller = site_caller;
    c->sibling = parent->child;
    __atomic_store_n(&parent->child, c, __ATOMIC_RELEASE);
    return c;
}

/* Adds count allocations of type to n; a new entry is built before it is linked in. */
static void add_alloc(Node *n, int type, uint64_t count) {
    for (Alloc *a = n->allocs; a; a = a->next) {
        if (a->type == type) {
            a->count += count;
            return;
        }
    }
    Alloc *a = xmalloc(sizeof *a);
    a->type = type;
    a->count = count;
    a->next = n->allocs;
    __atomic_store_n(&n->allocs, a, __ATOMIC_RELEASE);
}

/* Adds src's subtrees into dst (iteratively: trees of deep recursions are deep). */
static void merge_into(Node *dst, Node *src) {
    size_t cap = 256, n = 0;
    Node **work = xmalloc(sizeof(Node *) * cap * 2);
    work[0] = dst;
    work[1] = src;
    n = 1;
    while (n > 0) {
        n--;
        Node *d = work[2 * n], *s = work[2 * n + 1];
        for (Node *c = __atomic_load_n(&s->child, __ATOMIC_ACQUIRE); c; c = c->sibling) {
            Node *dc = child_of(d, c->frame, c->site, c->site_caller);
            dc->calls += c->calls;
            dc->bytecodes += c->bytecodes;
            for (Alloc *a = __atomic_load_n(&c->allocs, __ATOMIC_ACQUIRE); a; a = a->next)
                add_alloc(dc, a->type, a->count);
            if (n == cap) {
                cap *= 2;
                work = realloc(work, sizeof(Node *) * cap * 2);
                if (!work) fatal("realloc", 0);
            }
            work[2 * n] = dc;
            work[2 * n + 1] = c;
            n++;
        }
    }
    free(work);
}

static void free_children(Node *root) {
    size_t cap = 256, n = 0;
    Node **work = xmalloc(sizeof(Node *) * cap);
    for (Node *c = root->child; c; c = c->sibling) {
        if (n == cap) work = realloc(work, sizeof(Node *) * (cap *= 2));
        work[n++] = c;
    }
    root->child = NULL;
    while (n > 0) {
        Node *x = work[--n];
        for (Node *c = x->child; c; c = c->sibling) {
            if (n == cap) work = realloc(work, sizeof(Node *) * (cap *= 2));
            work[n++] = c;
        }
        for (Alloc *a = x->allocs, *next; a; a = next) {
            next = a->next;
            free(a);
        }
        free(x);
    }
    free(work);
}

static Node g_global_root;

/* ------------------------------------------------------------------------------------------ */
/* Threads                                                                                    */

typedef struct Frame {
    jmethodID method;
    MethodInfo *info;
    Node *node;        /* the context while this frame is on top */
    int32_t last_bci;  /* last stepped bci of this frame (selected frames) */
    int32_t call_site; /* bci of the invoke in the selected frame below that made this call, or -1 */
    uint64_t steps;    /* bytecodes counted in this activation */
    uint8_t counted;   /* a selected method's activation begun while recording: it has a context */
} Frame;

#define CACHE_SIZE 2048

typedef struct CacheEntry {
    jmethodID id;
    MethodInfo *mi;
} CacheEntry;

typedef struct ThreadState {
    Frame *stack;
    int depth, cap;
    Node root;
    jmethodID last_method; /* the last SingleStep HotSpot posted on this thread */
    jlocation last_loc;
    /* sites=on: the last SingleStep whose callback returned (a forced initialisation's nested
     * steps are done by then): the invoke a callee entered next is called from. */
    jmethodID site_method;
    jlocation site_loc;
    int forced_depth;      /* stack depth while the agent itself calls Class.forName, else -1 */
    struct ThreadState *next;
    CacheEntry cache[CACHE_SIZE];
} ThreadState;

static ThreadState *g_threads;

static ThreadState *thread_state(void) {
    void *p = NULL;
    if ((*g_jvmti)->GetThreadLocalStorage(g_jvmti, NULL, &p) == JVMTI_ERROR_NONE && p) return p;
    ThreadState *st = xmalloc(sizeof *st);
    st->cap = 64;
    st->stack = xmalloc(sizeof(Frame) * st->cap);
    st->root.frame = -1;
    st->last_loc = -1;
    st->forced_depth = -1;
    if ((*g_jvmti)->SetThreadLocalStorage(g_jvmti, NULL, st) != JVMTI_ERROR_NONE) {
        free(st->stack);
        free(st);
        return NULL;
    }
    pthread_mutex_lock(&g_lock);
    st->next = g_threads;
    g_threads = st;
    g_stat_threads++;
    pthread_mutex_unlock(&g_lock);
    return st;
}

static MethodInfo *method_info(ThreadState *st, jmethodID id) {
    CacheEntry *e = &st->cache[hash_ptr(id, CACHE_SIZE)];
    if (e->id == id) return e->mi;
    MethodInfo *mi = global_method_info(id);
    e->id = id;
    e->mi = mi;
    return mi;
}

static const char *frame_name(MethodInfo *mi) {
    return mi->frame >= 0 ? g_frames[mi->frame] : "?";
}

static int alloc_type(MethodInfo *mi, int bci);

/* One bytecode of the (selected) method of f, run at bci: counted in its context and at its bci,
 * and when it allocates, as an allocation of its type in its context. */
static void count_step(Frame *f, int bci) {
    f->node->bytecodes++;
    f->steps++;
    f->last_bci = bci;
    MethodInfo *mi = f->info;
    load_code(mi);
    if (bci < 0 || bci >= mi->code_len) return;
    __atomic_fetch_add(&mi->steps_at[bci], 1, __ATOMIC_RELAXED);
    int type = alloc_type(mi, bci);
    if (type >= 0) add_alloc(f->node, type, 1);
}

/* ------------------------------------------------------------------------------------------ */
/* Class initialisation on demand (HotSpot fact 2)                                            */

/* The name (internal form, or an array's descriptor) of the class of constant-pool entry index
 * of klass: a Class entry, or with member set a field or method reference's class. NULL when
 * there is none. malloc'd. */
static char *cp_class_name(jclass klass, int index, int member) {
    jint count = 0, bytecount = 0;
    unsigned char *cp = NULL;
    if ((*g_jvmti)->GetConstantPool(g_jvmti, klass, &count, &bytecount, &cp) != JVMTI_ERROR_NONE)
        return NULL;
    int *offset = xmalloc(sizeof(int) * (count + 1));
    int pos = 0;
    for (int i = 1; i < count && pos < bytecount; i++) {
        offset[i] = pos;
        int tag = cp[pos];
        switch (tag) {
        case 1: pos += 3 + ((cp[pos + 1] << 8) | cp[pos + 2]); break;
        case 3: case 4: pos += 5; break;
        case 5: case 6: pos += 9; i++; break;
        case 7: case 8: case 16: case 19: case 20: pos += 3; break;
        case 9: case 10: case 11: case 12: case 17: case 18: pos += 5; break;
        case 15: pos += 4; break;
        default: pos = bytecount; break; /* unknown: give up */
        }
    }
#define U2(at) ((cp[(at)] << 8) | cp[(at) + 1])
    char *result = NULL;
    int class_index = -1;
    if (index > 0 && index < count) {
        int at = offset[index];
        int tag = cp[at];
        if (!member && tag == 7) class_index = index;
        else if (member && (tag == 9 || tag == 10 || tag == 11)) class_index = U2(at + 1);
    }
    if (class_index > 0 && class_index < count && cp[offset[class_index]] == 7) {
        int name_index = U2(offset[class_index] + 1);
        if (name_index > 0 && name_index < count && cp[offset[name_index]] == 1) {
            int at = offset[name_index];
            int len = U2(at + 1);
            result = xmalloc(len + 1);
            memcpy(result, cp + at + 3, len);
        }
    }
#undef U2
    free(offset);
    (*g_jvmti)->Deallocate(g_jvmti, cp);
    return result;
}

/* The internal name of the class a getstatic/putstatic/invokestatic/new at bci would
 * initialise, or NULL. malloc'd. */
static char *init_target(jclass klass, MethodInfo *mi, int bci) {
    int op = mi->code[bci];
    return cp_class_name(klass, (mi->code[bci + 1] << 8) | mi->code[bci + 2], op != 0xbb);
}

/* "int[]" for "[I", "java.lang.String[]" for "[Ljava/lang/String;", "a.B" for "a/B": the name
 * Java source writes for an internal name or an array descriptor. malloc'd. */
static char *java_name(const char *internal) {
    static const char codes[] = "ZCFDBSIJ";
    static const char *const primitives[] = {"boolean", "char", "float", "double",
                                             "byte", "short", "int", "long"};
    int dims = 0;
    while (internal[dims] == '[') dims++;
    const char *element = internal + dims;
    size_t len = strlen(element);
    char *base;
    const char *code = dims > 0 && len == 1 ? strchr(codes, element[0]) : NULL;
    if (code) {
        base = strdup(primitives[code - codes]);
    } else if (dims > 0 && len >= 2 && element[0] == 'L' && element[len - 1] == ';') {
        base = xmalloc(len - 1);
        memcpy(base, element + 1, len - 2);
    } else {
        base = strdup(element);
    }
    for (char *p = base; *p; p++)
        if (*p == '/') *p = '.';
    char *name = xmalloc(strlen(base) + 2 * dims + 1);
    strcpy(name, base);
    for (int i = 0; i < dims; i++) strcat(name, "[]");
    free(base);
    return name;
}

/* What an event of <out>.opcodes.folded is interned as: no Java type name has a colon. */
#define OPCODE_PREFIX "opcode:"

/* The kind of <out>.opcodes.folded the opcode is of, or NULL. */
static const char *opcode_kind(int op) {
    if (op == 0xc2) return "monitorenter";
    if (op == 0xbf) return "athrow";
    if (op >= 0x2e && op <= 0x35) return "array-load";
    if (op >= 0x4f && op <= 0x56) return "array-store";
    return NULL;
}

/* The interned event (in the frames' table, which holds any string) that the bytecode at bci of
 * a selected method counts: the type it allocates, or OPCODE_PREFIX and its kind; -1 when it
 * counts none. Looked up once per bci. */
static int alloc_type(MethodInfo *mi, int bci) {
    int known = __atomic_load_n(&mi->alloc_type[bci], __ATOMIC_ACQUIRE);
    if (known) return known > 0 ? known - 1 : -1;
    int op = mi->code[bci];
    char *name = NULL;
    const char *kind = opcode_kind(op);
    if (kind) {
        name = xmalloc(strlen(OPCODE_PREFIX) + strlen(kind) + 1);
        strcpy(name, OPCODE_PREFIX);
        strcat(name, kind);
    } else if (op == 0xbc) {
        static const char *const by_atype[] = {"boolean[]", "char[]", "float[]", "double[]",
                                               "byte[]", "short[]", "int[]", "long[]"};
        int atype = mi->code[bci + 1];
        if (atype >= 4 && atype <= 11) name = strdup(by_atype[atype - 4]);
    } else if (op == 0xbb || op == 0xbd || op == 0xc5) {
        jclass klass = NULL;
        char *internal = NULL;
        if ((*g_jvmti)->GetMethodDeclaringClass(g_jvmti, mi->id, &klass) == JVMTI_ERROR_NONE)
            internal = cp_class_name(klass, (mi->code[bci + 1] << 8) | mi->code[bci + 2], 0);
        if (internal) {
            char *element = java_name(internal);
            free(internal);
            if (op == 0xbd) {
                name = xmalloc(strlen(element) + 3);
                strcpy(name, element);
                strcat(name, "[]");
                free(element);
            } else {
                name = element;
            }
        } else {
            warn("no class for the allocation at bci %d of %s", bci, frame_name(mi));
        }
    }
    int type = -1;
    if (name) {
        pthread_mutex_lock(&g_lock);
        type = intern_frame(name);
        pthread_mutex_unlock(&g_lock);
    }
    __atomic_store_n(&mi->alloc_type[bci], type + 1 > 0 ? type + 1 : -1, __ATOMIC_RELEASE);
    return type;
}

/* Runs before the bytecode at bci of a selected method executes. */
static void init_on_demand(JNIEnv *jni, ThreadState *st, MethodInfo *mi, int bci) {
    load_code(mi);
    if (bci < 0 || bci >= mi->code_len || mi->init_checked[bci]) return;
    int op = mi->code[bci];
    if (op != 0xb2 && op != 0xb3 && op != 0xb8 && op != 0xbb) {
        mi->init_checked[bci] = 1;
        return;
    }
    jclass klass = NULL;
    if ((*g_jvmti)->GetMethodDeclaringClass(g_jvmti, mi->id, &klass) != JVMTI_ERROR_NONE) return;
    char *target = init_target(klass, mi, bci);
    if (!target || target[0] == '[' || strcmp(target, mi->class_internal) == 0) {
        free(target);
        mi->init_checked[bci] = 1;
        return;
    }
    char *binary = dotted(target);
    free(target);
    if (name_selected(binary)) {
        jobject loader = NULL;
        (*g_jvmti)->GetClassLoader(g_jvmti, klass, &loader);
        jstring jname = (*jni)->NewStringUTF(jni, binary);
        if (jname) {
            /* The frames this call enters were not made by the invoke at bci (if it is one). */
            int saved = st->forced_depth;
            st->forced_depth = st->depth;
            jobject c = (*jni)->CallStaticObjectMethod(jni, g_class_class, g_for_name, jname,
                                                       JNI_TRUE, loader);
            /* A failing initialisation fails again, as it would have, when the bytecode runs. */
            st->forced_depth = saved;
            if ((*jni)->ExceptionCheck(jni)) (*jni)->ExceptionClear(jni);
            if (c) (*jni)->DeleteLocalRef(jni, c);
            (*jni)->DeleteLocalRef(jni, jname);
        }
        if (loader) (*jni)->DeleteLocalRef(jni, loader);
        g_stat_forced_init++;
    }
    /* Marked only now: another thread that reaches this bytecode meanwhile calls forName too
     * and waits for the initialisation, instead of starting it inside resolution. A nested
     * request from the initialiser itself returns at once (JVMS §5.5, step 3). */
    mi->init_checked[bci] = 1;
    free(binary);
    (*jni)->DeleteLocalRef(jni, klass);
}

/* ------------------------------------------------------------------------------------------ */
/* Event callbacks                                                                            */

static void JNICALL on_method_entry(jvmtiEnv *jvmti, JNIEnv *jni, jthread thread, jmethodID method) {
    (void)jvmti; (void)jni; (void)thread;
    if (g_dead) return;
    ThreadState *st = thread_state();
    if (!st) return;
    MethodInfo *mi = method_info(st, method);
    if (mi->control) g_recording = mi->control > 0;
    if (st->depth == st->cap) {
        st->cap *= 2;
        st->stack = realloc(st->stack, sizeof(Frame) * st->cap);
        if (!st->stack) fatal("realloc", 0);
    }
    Frame *below = st->depth > 0 ? &st->stack[st->depth - 1] : NULL;
    Node *cur = below ? below->node : &st->root;
    Frame *f = &st->stack[st->depth];
    f->method = method;
    f->info = mi;
    f->last_bci = -1;
    f->call_site = -1;
    f->steps = 0;
    f->counted = mi->selected && g_recording;
    if (below && below->counted && st->depth != st->forced_depth && st->last_method == below->method &&
        st->last_loc == below->last_bci && is_invoke(opcode_at(below->info, below->last_bci)))
        f->call_site = below->last_bci;
    if (f->counted) {
        Node *parent = mi->is_clinit ? &st->root : cur;
        /* With sites=on, keyed by the invoke of the counted frame right below that called it;
         * never a static initializer, which an invoke may trigger but which is top-level. */
        int32_t site = -1;
        if (g_sites && below && below->counted && !mi->is_clinit && st->depth != st->forced_depth &&
            st->site_method == below->method && st->site_loc == below->last_bci &&
            is_invoke(opcode_at(below->info, below->last_bci)))
            site = below->last_bci;
        f->node = child_of(parent, mi->frame, site, site >= 0 ? below->info : NULL);
        f->node->calls++;
        g_stat_entries++;
        /* HotSpot fact 1: the first bytecode (bci 0) is not posted if the last posted step was
         * this very location (an invoke at bci 0 calling its own method). */
        if (g_want_bytecodes && st->last_method == method && st->last_loc == 0) {
            count_step(f, 0);
            g_stat_synth_entry++;
        }
    } else {
        f->node = cur;
    }
    st->depth++;
}

static void JNICALL on_method_exit(jvmtiEnv *jvmti, JNIEnv *jni, jthread thread, jmethodID method,
                                   jboolean popped_by_exception, jvalue return_value) {
    (void)jvmti; (void)thread; (void)return_value;
    if (g_dead) return;
    ThreadState *st = thread_state();
    if (!st) return;
    int top = st->depth - 1;
    if (top < 0 || st->stack[top].method != method) {
        int i = top - 1;
        while (i >= 0 && st->stack[i].method != method) i--;
        if (i < 0) {
            /* A frame entered before the agent saw events (VM start-up threads): ignore. */
            MethodInfo *mi = method_info(st, method);
            if (mi->selected) warn("exit of %s without a matching entry", frame_name(mi));
            return;
        }
        warn("exit of %s: %d exit event(s) missing above it (stack repaired)",
             frame_name(st->stack[i].info), top - i);
        top = i;
    }
    Frame *f = &st->stack[top];
    if (g_want_bytecodes && f->counted && f->steps == 0 && !f->info->is_native)
        warn("%s ran without SingleStep events (stepping hidden by HotSpot?)", frame_name(f->info));
    st->depth = top;
    /* HotSpot fact 1: after a normal return the caller goes on at the bytecode after its
     * invoke; if that location was the last one posted (the callee, an activation of the same
     * method, ended there) HotSpot swallows the step. */
    if (g_want_bytecodes && !popped_by_exception && f->call_site >= 0 && top > 0) {
        Frame *c = &st->stack[top - 1];
        if (c->counted) {
            int resume = f->call_site + invoke_length(opcode_at(c->info, f->call_site));
            if (st->last_method == c->method && st->last_loc == resume) {
                count_step(c, resume);
                g_stat_synth_return++;
                if (g_init_demand) init_on_demand(jni, st, c->info, resume);
            }
        }
    }
}

static void JNICALL on_exception_catch(jvmtiEnv *jvmti, JNIEnv *jni, jthread thread,
                                       jmethodID method, jlocation location, jobject exception) {
    (void)jvmti; (void)thread; (void)exception;
    if (g_dead || !g_want_bytecodes) return;
    ThreadState *st = thread_state();
    if (!st || st->depth == 0) return;
    Frame *f = &st->stack[st->depth - 1];
    if (f->method != method || !f->counted) return;
    /* HotSpot fact 1 again: the handler's first bytecode equals the last posted location. */
    if (st->last_method == method && st->last_loc == location) {
        count_step(f, (int)location);
        g_stat_synth_catch++;
        if (g_init_demand) init_on_demand(jni, st, f->info, (int)location);
    }
}

static void JNICALL on_single_step(jvmtiEnv *jvmti, JNIEnv *jni, jthread thread, jmethodID method,
                                   jlocation location) {
    (void)jvmti; (void)thread;
    if (g_dead) return;
    ThreadState *st = thread_state();
    if (!st) return;
    st->last_method = method;
    st->last_loc = location;
    st->site_method = method;
    st->site_loc = location;
    MethodInfo *mi = method_info(st, method);
    if (!mi->selected) return;
    Frame *f = st->depth > 0 ? &st->stack[st->depth - 1] : NULL;
    if (!f || f->method != method) {
        warn("SingleStep in %s at bci %d, which is not the top frame", frame_name(mi), (int)location);
        return;
    }
    if (f->counted) {
        count_step(f, (int)location);
        g_stat_steps++;
    }
    /* Last, because it may run Java code (and so nested events that move the stack). */
    if (g_init_demand) init_on_demand(jni, st, mi, (int)location);
    st->site_method = method;
    st->site_loc = location;
}

static void JNICALL on_thread_end(jvmtiEnv *jvmti, JNIEnv *jni, jthread thread) {
    (void)jvmti; (void)jni; (void)thread;
    if (g_dead) return;
    void *p = NULL;
    if ((*g_jvmti)->GetThreadLocalStorage(g_jvmti, NULL, &p) != JVMTI_ERROR_NONE || !p) return;
    ThreadState *st = p;
    pthread_mutex_lock(&g_lock);
    merge_into(&g_global_root, &st->root);
    free_children(&st->root);
    st->depth = 0; /* no frame may point at the freed nodes, should an event still come */
    pthread_mutex_unlock(&g_lock);
}

static void JNICALL on_vm_init(jvmtiEnv *jvmti, JNIEnv *jni, jthread thread) {
    (void)thread;
    jclass c = (*jni)->FindClass(jni, "java/lang/Class");
    if (!c) {
        fprintf(stderr, "jp-oracle: java/lang/Class not found\n");
        exit(70);
    }
    g_class_class = (*jni)->NewGlobalRef(jni, c);
    g_for_name = (*jni)->GetStaticMethodID(
        jni, g_class_class, "forName", "(Ljava/lang/String;ZLjava/lang/ClassLoader;)Ljava/lang/Class;");
    if (!g_for_name) {
        fprintf(stderr, "jp-oracle: Class.forName not found\n");
        exit(70);
    }
    jvmtiEvent events[] = {JVMTI_EVENT_METHOD_ENTRY, JVMTI_EVENT_METHOD_EXIT, JVMTI_EVENT_THREAD_END,
                           JVMTI_EVENT_VM_DEATH};
    for (size_t i = 0; i < sizeof events / sizeof events[0]; i++) {
        jvmtiError err = (*jvmti)->SetEventNotificationMode(jvmti, JVMTI_ENABLE, events[i], NULL);
        if (err != JVMTI_ERROR_NONE) fatal("SetEventNotificationMode", err);
    }
    if (g_want_bytecodes) {
        jvmtiError err = (*jvmti)->SetEventNotificationMode(jvmti, JVMTI_ENABLE, JVMTI_EVENT_SINGLE_STEP, NULL);
        if (err != JVMTI_ERROR_NONE) fatal("SetEventNotificationMode(SingleStep)", err);
        err = (*jvmti)->SetEventNotificationMode(jvmti, JVMTI_ENABLE, JVMTI_EVENT_EXCEPTION_CATCH, NULL);
        if (err != JVMTI_ERROR_NONE) fatal("SetEventNotificationMode(ExceptionCatch)", err);
    }
}

/* ------------------------------------------------------------------------------------------ */
/* Output                                                                                     */

typedef struct Line {
    char *path;
    const Node *node;
    uint64_t calls, bytecodes;
} Line;

static int line_cmp(const void *a, const void *b) {
    return strcmp(((const Line *)a)->path, ((const Line *)b)->path);
}

static int string_cmp(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int write_folded(const char *suffix, Line *lines, size_t n, int which) {
    size_t len = strlen(g_out) + strlen(suffix) + 1;
    char *name = xmalloc(len);
    snprintf(name, len, "%s%s", g_out, suffix);
    FILE *f = fopen(name, "w");
    if (!f) {
        fprintf(stderr, "jp-oracle: cannot write %s\n", name);
        free(name);
        return 0;
    }
    for (size_t i = 0; i < n; i++)
        fprintf(f, "%s %llu\n", lines[i].path,
                (unsigned long long)(which ? lines[i].bytecodes : lines[i].calls));
    fclose(f);
    free(name);
    return 1;
}

/* The line of bci: the entry with the greatest start at or before it, the last of those that
 * start alike; 0 for none. */
static int line_of(const jvmtiLineNumberEntry *table, jint n, int bci) {
    int line = 0;
    jlocation best = -1;
    for (jint i = 0; i < n; i++) {
        if (table[i].start_location <= bci && table[i].start_location >= best) {
            best = table[i].start_location;
            line = table[i].line_number;
        }
    }
    return line;
}

typedef struct LineCount {
    int line;
    uint64_t bytecodes;
} LineCount;

static int line_count_cmp(const void *a, const void *b) {
    int x = ((const LineCount *)a)->line, y = ((const LineCount *)b)->line;
    return (x > y) - (x < y);
}

/* <out>.lines: "frame line bytecodes" for every line of a selected method that ran, sorted. */
static void write_lines(void) {
    size_t cap = 1024, n = 0;
    char **out = xmalloc(sizeof(char *) * cap);
    for (size_t m = 0; m < g_method_cap; m++) {
        MethodInfo *mi = g_methods[m];
        if (!mi || !mi->selected || !mi->code_loaded || mi->code_len == 0) continue;
        jint entries = 0;
        jvmtiLineNumberEntry *table = NULL;
        if ((*g_jvmti)->GetLineNumberTable(g_jvmti, mi->id, &entries, &table) != JVMTI_ERROR_NONE) {
            entries = 0;
            table = NULL;
        }
        LineCount *counts = xmalloc(sizeof(LineCount) * mi->code_len);
        int k = 0;
        for (int bci = 0; bci < mi->code_len; bci++) {
            if (!mi->steps_at[bci]) continue;
            int line = line_of(table, entries, bci);
            if (line == 0) continue; /* on no line: JP counts it on none either */
            counts[k].line = line;
            counts[k].bytecodes = mi->steps_at[bci];
            k++;
        }
        if (table) (*g_jvmti)->Deallocate(g_jvmti, (unsigned char *)table);
        qsort(counts, k, sizeof(LineCount), line_count_cmp);
        for (int i = 0; i < k;) {
            int line = counts[i].line;
            uint64_t sum = 0;
            for (; i < k && counts[i].line == line; i++) sum += counts[i].bytecodes;
            const char *frame = g_frames[mi->frame];
            size_t len = strlen(frame) + 48;
            if (n == cap) out = realloc(out, sizeof(char *) * (cap *= 2));
            if (!out) fatal("realloc", 0);
            out[n] = xmalloc(len);
            snprintf(out[n], len, "%s %d %llu", frame, line, (unsigned long long)sum);
            n++;
        }
        free(counts);
    }
    qsort(out, n, sizeof(char *), string_cmp);
    size_t len = strlen(g_out) + 8;
    char *name = xmalloc(len);
    snprintf(name, len, "%s.lines", g_out);
    FILE *f = fopen(name, "w");
    if (!f) fprintf(stderr, "jp-oracle: cannot write %s\n", name);
    for (size_t i = 0; i < n; i++) {
        if (f) fprintf(f, "%s\n", out[i]);
        free(out[i]);
    }
    if (f) fclose(f);
    free(name);
    free(out);
}

/* A context's name in the folded output: its frame, followed with sites=on by its call site,
 * " @ line N" (the caller's line at the invoke) or " @ bci N" where it has none. */
static char *context_name(const Node *c) {
    const char *frame = g_frames[c->frame];
    if (c->site < 0) return strdup(frame);
    int line = 0;
    jint entries = 0;
    jvmtiLineNumberEntry *table = NULL;
    if ((*g_jvmti)->GetLineNumberTable(g_jvmti, c->site_caller->id, &entries, &table) == JVMTI_ERROR_NONE) {
        line = line_of(table, entries, c->site);
        (*g_jvmti)->Deallocate(g_jvmti, (unsigned char *)table);
    }
    size_t len = strlen(frame) + 32;
    char *name = xmalloc(len);
    if (line > 0) snprintf(name, len, "%s @ line %d", frame, line);
    else snprintf(name, len, "%s @ bci %d", frame, (int)c->site);
    return name;
}

/* <out><suffix>: "path event count" per context and counted event, sorted: the allocated types
 * (opcodes 0), or the kinds of instruction, without OPCODE_PREFIX (opcodes 1). */
static void write_events(const char *suffix, const Line *lines, size_t n, int opcodes) {
    size_t cap = 1024, k = 0, prefix = strlen(OPCODE_PREFIX);
    char **out = xmalloc(sizeof(char *) * cap);
    for (size_t i = 0; i < n; i++) {
        for (const Alloc *a = lines[i].node->allocs; a; a = a->next) {
            const char *event = g_frames[a->type];
            if ((strncmp(event, OPCODE_PREFIX, prefix) == 0) != opcodes) continue;
            if (opcodes) event += prefix;
            size_t len = strlen(lines[i].path) + strlen(event) + 24;
            if (k == cap) out = realloc(out, sizeof(char *) * (cap *= 2));
            if (!out) fatal("realloc", 0);
            out[k] = xmalloc(len);
            snprintf(out[k], len, "%s %s %llu", lines[i].path, event, (unsigned long long)a->count);
            k++;
        }
    }
    qsort(out, k, sizeof(char *), string_cmp);
    size_t len = strlen(g_out) + strlen(suffix) + 1;
    char *name = xmalloc(len);
    snprintf(name, len, "%s%s", g_out, suffix);
    FILE *f = fopen(name, "w");
    if (!f) fprintf(stderr, "jp-oracle: cannot write %s\n", name);
    for (size_t i = 0; i < k; i++) {
        if (f) fprintf(f, "%s\n", out[i]);
        free(out[i]);
    }
    if (f) fclose(f);
    free(name);
    free(out);
}

static void dump(void) {
    /* Depth-first over the global tree with an explicit stack; each entry knows its path. */
    size_t cap = 1024, n = 0, lines_cap = 1024, lines_n = 0;
    struct Item { Node *node; char *path; } *work = xmalloc(sizeof(struct Item) * cap);
    Line *lines = xmalloc(sizeof(Line) * lines_cap);
    uint64_t total_calls = 0, total_bytecodes = 0;
    for (Node *c = g_global_root.child; c; c = c->sibling) {
        if (n == cap) work = realloc(work, sizeof(struct Item) * (cap *= 2));
        work[n].node = c;
        work[n].path = context_name(c);
        n++;
    }
    while (n > 0) {
        struct Item it = work[--n];
        if (lines_n == lines_cap) lines = realloc(lines, sizeof(Line) * (lines_cap *= 2));
        lines[lines_n].path = it.path;
        lines[lines_n].node = it.node;
        lines[lines_n].calls = it.node->calls;
        lines[lines_n].bytecodes = it.node->bytecodes;
        lines_n++;
        total_calls += it.node->calls;
        total_bytecodes += it.node->bytecodes;
        size_t plen = strlen(it.path);
        for (Node *c = it.node->child; c; c = c->sibling) {
            char *fr = context_name(c);
            char *p = xmalloc(plen + strlen(fr) + 2);
            memcpy(p, it.path, plen);
            p[plen] = ';';
            strcpy(p + plen + 1, fr);
            free(fr);
            if (n == cap) work = realloc(work, sizeof(struct Item) * (cap *= 2));
            if (!work || !lines) fatal("realloc", 0);
            work[n].node = c;
            work[n].path = p;
            n++;
        }
    }
    qsort(lines, lines_n, sizeof(Line), line_cmp);
    if (g_want_calls) write_folded(".calls.folded", lines, lines_n, 0);
    if (g_want_bytecodes) {
        write_folded(".bytecodes.folded", lines, lines_n, 1);
        write_lines();
        write_events(".allocations.folded", lines, lines_n, 0);
        write_events(".opcodes.folded", lines, lines_n, 1);
    }
    for (size_t i = 0; i < lines_n; i++) free(lines[i].path);
    free(lines);
    free(work);
    if (g_verbose) {
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        double secs = (now.tv_sec - g_start.tv_sec) + (now.tv_nsec - g_start.tv_nsec) / 1e9;
        fprintf(stderr,
                "jp-oracle: %zu contexts, %llu calls, %llu bytecodes, %ld threads; "
                "repeat steps added: %ld entry, %ld return, %ld catch; %ld class initialisations "
                "forced; %.2f s\n",
                lines_n, (unsigned long long)total_calls, (unsigned long long)total_bytecodes,
                g_stat_threads, g_stat_synth_entry, g_stat_synth_return, g_stat_synth_catch,
                g_stat_forced_init, secs);
    }
}

static void JNICALL on_vm_death(jvmtiEnv *jvmti, JNIEnv *jni) {
    (void)jvmti; (void)jni;
    pthread_mutex_lock(&g_lock);
    g_dead = 1;
    for (ThreadState *st = g_threads; st; st = st->next) merge_into(&g_global_root, &st->root);
    pthread_mutex_unlock(&g_lock);
    dump();
    if (g_warn_count > 0) {
        for (int i = 0; i < g_warn_text_count; i++)
            fprintf(stderr, "jp-oracle: warning: %s\n", g_warn_text[i]);
        fprintf(stderr, "jp-oracle: %ld warning(s)\n", g_warn_count);
    }
    fflush(stderr);
}

/* ------------------------------------------------------------------------------------------ */
/* Options and start-up                                                                       */

static void add_patterns(char **list, int *count, const char *value) {
    char *copy = strdup(value);
    for (char *tok = strtok(copy, ";"); tok; tok = strtok(NULL, ";")) {
        if (!*tok) continue;
        if (*count == MAX_PATTERNS) {
            fprintf(stderr, "jp-oracle: too many patterns\n");
            exit(2);
        }
        list[(*count)++] = strdup(tok);
    }
    free(copy);
}

/* Applies one option. A continuation is an item without '=' that follows key=...: it adds to
 * the same list ("include=a.,b." selects both prefixes). */
static void apply_option(const char *key, const char *value, int continuation) {
    if (strcmp(key, "include") == 0) {
        add_patterns(g_include, &g_include_count, value);
    } else if (strcmp(key, "exclude") == 0) {
        add_patterns(g_exclude, &g_exclude_count, value);
    } else if (strcmp(key, "metrics") == 0) {
        if (!continuation) g_want_calls = g_want_bytecodes = 0;
        char *copy = strdup(value);
        for (char *tok = strtok(copy, ";+"); tok; tok = strtok(NULL, ";+")) {
            if (strcmp(tok, "calls") == 0) g_want_calls = 1;
            else if (strcmp(tok, "bytecodes") == 0) g_want_bytecodes = 1;
            else {
                fprintf(stderr, "jp-oracle: unknown metric '%s' (calls, bytecodes)\n", tok);
                exit(2);
            }
        }
        free(copy);
    } else if (continuation) {
        fprintf(stderr, "jp-oracle: unknown option '%s'\n", value);
        exit(2);
    } else if (strcmp(key, "out") == 0) {
        g_out = strdup(value);
    } else if (strcmp(key, "init") == 0) {
        if (strcmp(value, "demand") == 0) g_init_demand = 1;
        else if (strcmp(value, "off") == 0) g_init_demand = 0;
        else {
            fprintf(stderr, "jp-oracle: init must be demand or off\n");
            exit(2);
        }
    } else if (strcmp(key, "natives") == 0) {
        if (strcmp(value, "on") == 0) g_natives = 1;
        else if (strcmp(value, "off") == 0) g_natives = 0;
        else {
            fprintf(stderr, "jp-oracle: natives must be on or off\n");
            exit(2);
        }
    } else if (strcmp(key, "sites") == 0) {
        if (strcmp(value, "on") == 0) g_sites = 1;
        else if (strcmp(value, "off") == 0) g_sites = 0;
        else {
            fprintf(stderr, "jp-oracle: sites must be on or off\n");
            exit(2);
        }
    } else if (strcmp(key, "start") == 0) {
        if (strcmp(value, "recording") == 0) g_recording = 1;
        else if (strcmp(value, "paused") == 0) g_recording = 0;
        else {
            fprintf(stderr, "jp-oracle: start must be recording or paused\n");
            exit(2);
        }
    } else if (strcmp(key, "verbose") == 0) {
        g_verbose = strcmp(value, "0") != 0 && strcmp(value, "false") != 0;
    } else {
        fprintf(stderr, "jp-oracle: unknown option '%s'\n", key);
        exit(2);
    }
}

static void parse_options(const char *options) {
    if (!options) return;
    char *copy = strdup(options);
    char *rest = copy;
    char last_key[64] = "";
    for (char *item = strsep(&rest, ","); item; item = strsep(&rest, ",")) {
        if (!*item) continue;
        char *eq = strchr(item, '=');
        if (!eq) {
            if (strcmp(item, "verbose") == 0) g_verbose = 1;
            else if (last_key[0]) apply_option(last_key, item, 1);
            else {
                fprintf(stderr, "jp-oracle: unknown option '%s'\n", item);
                exit(2);
            }
            continue;
        }
        *eq = 0;
        snprintf(last_key, sizeof last_key, "%s", item);
        apply_option(item, eq + 1, 0);
    }
    free(copy);
}

JNIEXPORT jint JNICALL Agent_OnLoad(JavaVM *vm, char *options, void *reserved) {
    (void)reserved;
    clock_gettime(CLOCK_MONOTONIC, &g_start);
    parse_options(options);
    if (g_include_count == 0) {
        fprintf(stderr, "jp-oracle: option include=PREFIX[;PREFIX...] is required\n");
        return 2;
    }
    jint rc = (*vm)->GetEnv(vm, (void **)&g_jvmti, JVMTI_VERSION_11);
    if (rc != JNI_OK) {
        fprintf(stderr, "jp-oracle: no JVMTI 11 environment (%d)\n", (int)rc);
        return 2;
    }
    jvmtiCapabilities caps;
    memset(&caps, 0, sizeof caps);
    caps.can_generate_method_entry_events = 1;
    caps.can_generate_method_exit_events = 1;
    caps.can_get_bytecodes = 1;
    caps.can_get_constant_pool = 1;
    caps.can_get_line_numbers = 1;
    if (g_want_bytecodes) {
        caps.can_generate_single_step_events = 1;
        caps.can_generate_exception_events = 1;
    }
    jvmtiError err = (*g_jvmti)->AddCapabilities(g_jvmti, &caps);
    if (err != JVMTI_ERROR_NONE) fatal("AddCapabilities", err);
    jvmtiEventCallbacks cb;
    memset(&cb, 0, sizeof cb);
    cb.VMInit = on_vm_init;
    cb.VMDeath = on_vm_death;
    cb.ThreadEnd = on_thread_end;
    cb.MethodEntry = on_method_entry;
    cb.MethodExit = on_method_exit;
    cb.SingleStep = on_single_step;
    cb.ExceptionCatch = on_exception_catch;
    err = (*g_jvmti)->SetEventCallbacks(g_jvmti, &cb, sizeof cb);
    if (err != JVMTI_ERROR_NONE) fatal("SetEventCallbacks", err);
    err = (*g_jvmti)->SetEventNotificationMode(g_jvmti, JVMTI_ENABLE, JVMTI_EVENT_VM_INIT, NULL);
    if (err != JVMTI_ERROR_NONE) fatal("SetEventNotificationMode(VMInit)", err);
    return 0;
}
