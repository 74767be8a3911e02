package demo;

import java.util.ArrayList;
import java.util.List;

/** An abstract class with a template method, abstract hooks and dynamic dispatch over subclasses. */
public class Abstracts {
    abstract static class Task {
        final List<String> log = new ArrayList<>();

        final int run(int input) {
            int v = prepare(input);
            for (int i = 0; i < rounds(); i++) {
                v = step(v, i);
            }
            log.add(getClass().getSimpleName() + "=" + v);
            return finish(v);
        }

        int prepare(int input) {
            return input;
        }

        abstract int rounds();

        abstract int step(int v, int i);

        int finish(int v) {
            return v;
        }
    }

    static class Doubler extends Task {
        @Override
        int rounds() {
            return 4;
        }

        @Override
        int step(int v, int i) {
            return v * 2;
        }
    }

    static class Adder extends Task {
        @Override
        int prepare(int input) {
            return input + 100;
        }

        @Override
        int rounds() {
            return 6;
        }

        @Override
        int step(int v, int i) {
            return v + i;
        }
    }

    static class LoudAdder extends Adder {
        @Override
        int finish(int v) {
            return -super.finish(v);
        }
    }

    public static void main(String[] args) {
        Task[] tasks = {new Doubler(), new Adder(), new LoudAdder(), new Doubler()};
        int total = 0;
        for (int i = 0; i < tasks.length; i++) {
            total += tasks[i].run(i + 1);
        }
        System.out.println(total + " " + tasks[2].log);
    }
}
