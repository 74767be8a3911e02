package demo;

import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Method;

/**
 * Calls through core reflection: Method.invoke on static and instance methods (more than 15
 * times, so HotSpot switches from its native accessor to a generated one), Constructor
 * newInstance, Field access, and an invoked method that throws (InvocationTargetException).
 * The invoked methods hang under the method that calls invoke.
 */
public class Reflection {
    public int state;

    public Reflection() {
        state = 1;
    }

    public Reflection(int state) {
        this.state = state;
    }

    public static int triple(int x) {
        return 3 * x;
    }

    public int add(int x) {
        state += x;
        return state;
    }

    public void fail() {
        throw new UnsupportedOperationException("no");
    }

    public static void main(String[] args) throws Exception {
        Method triple = Reflection.class.getMethod("triple", int.class);
        Method add = Reflection.class.getMethod("add", int.class);
        Constructor<Reflection> ctor = Reflection.class.getConstructor(int.class);
        Field field = Reflection.class.getField("state");
        Reflection r = ctor.newInstance(10);
        long sum = 0;
        for (int i = 0; i < 20; i++) {
            sum += (Integer) triple.invoke(null, i);
            sum += (Integer) add.invoke(r, i);
        }
        field.setInt(r, 5);
        sum += field.getInt(r);
        Reflection plain = Reflection.class.getDeclaredConstructor().newInstance();
        try {
            Reflection.class.getMethod("fail").invoke(plain);
        } catch (java.lang.reflect.InvocationTargetException e) {
            sum += e.getCause().getMessage().length();
        }
        System.out.println(sum + " " + plain.state);
    }
}
