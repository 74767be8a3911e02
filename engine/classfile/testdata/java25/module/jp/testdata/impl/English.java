package jp.testdata.impl;

import jp.testdata.api.Greeter;

/** The provider of the test module, and its main class. */
public final class English implements Greeter {
    @Override
    public String greet(String name) {
        return "Hello, " + name;
    }

    public static void main(String[] args) {
        System.out.println(new English().greet(args.length > 0 ? args[0] : "world"));
    }
}
