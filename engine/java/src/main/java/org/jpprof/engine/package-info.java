/**
 * The Java facade of JP's engine: {@link org.jpprof.engine.Engine} loads the native library that
 * the jar carries and runs {@link org.jpprof.engine.InstrumentRequest}s, giving
 * {@link org.jpprof.engine.InstrumentResult}s, and renders profiles as reports
 * ({@link org.jpprof.engine.ReportRequest}). Every failure is an
 * {@link org.jpprof.engine.EngineException} with a complete message. The build plugins and tools
 * use this package; see docs/engine-jni.md.
 */
package org.jpprof.engine;
