// A compact source file (JEP 512): an implicitly declared final class with an instance main.
String greeting = "hello";

void main() {
    IO.println(greeting + ", " + helper(3));
}

int helper(int n) {
    return n * n;
}
