/**
 * What instrumented code and profiling agents see at run time.
 *
 * <p>This package will hold the small, stable surface that JP's class-file rewriting calls into:
 * {@code IC} (the per-method invocation counters), {@code RC} (an {@code IC} that also counts
 * executed bytecodes per basic block), {@code MID} (the method identifiers that instrumentation
 * embeds) and {@code Profiler} (starting, stopping and dumping a profile). Everything else, the
 * built-in agents' plumbing and the profile writer, goes to {@code org.jpprof.runtime.internal}.
 *
 * <p>The runtime is compiled for Java 8 and has no dependencies, because it is loaded into every
 * application that JP profiles. Code that instrumented classes reach uses no lambdas or streams:
 * those would bootstrap {@code java.lang.invoke} the first time a counter is touched.
 */
package org.jpprof.runtime;
