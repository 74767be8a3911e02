package jp.testdata.api;

/** The service of the test module. */
public interface Greeter {
    String greet(String name);
}
