/**
 * What instrumented code and profiling agents see at run time.
 *
 * <p>Instrumented methods call {@link org.jpprof.runtime.RC} (a thread's root context, found
 * through a per-thread lookup) to enter and leave their {@link org.jpprof.runtime.IC} (a node of
 * the thread's calling-context tree, with invocation and bytecode counts), identified by a
 * {@link org.jpprof.runtime.MID}. An agent, a {@link org.jpprof.runtime.Profiler}, receives the
 * trees; the built-in one writes a profile at exit. {@link org.jpprof.runtime.JP} writes it on
 * demand. {@link org.jpprof.runtime.Tests} gives each test that a thread runs a context of its own.
 *
 * <p>The runtime is compiled for Java 8 and has no dependencies, because it is loaded into every
 * application that JP profiles. Code that instrumented classes reach uses no lambdas or streams:
 * those would bootstrap {@code java.lang.invoke} the first time a counter is touched.
 */
package org.jpprof.runtime;
