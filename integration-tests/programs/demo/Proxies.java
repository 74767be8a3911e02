package demo;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;

/**
 * Dynamic proxies. The proxy classes are generated at run time (the one for the package-private
 * interface lands in package demo as demo.$ProxyN) and are never selected; the handler and the
 * target are program classes, so they hang under the caller of the proxy method. One interface
 * has a default method that the handler calls through InvocationHandler.invokeDefault.
 */
public class Proxies {
    public interface Greeter {
        String greet(String who);

        default String greetTwice(String who) {
            return greet(who) + greet(who);
        }
    }

    interface Counter {
        int next();
    }

    static final class RealGreeter implements Greeter {
        @Override
        public String greet(String who) {
            return "hi " + who + ";";
        }
    }

    static final class Tracing implements InvocationHandler {
        final Object target;
        int calls;

        Tracing(Object target) {
            this.target = target;
        }

        @Override
        public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
            calls++;
            if (method.isDefault()) {
                return InvocationHandler.invokeDefault(proxy, method, args);
            }
            return method.invoke(target, args);
        }
    }

    public static void main(String[] args) {
        Tracing tracing = new Tracing(new RealGreeter());
        Greeter g = (Greeter) Proxy.newProxyInstance(Greeter.class.getClassLoader(), new Class<?>[] {Greeter.class},
                tracing);
        String s = g.greet("a") + g.greetTwice("b");
        int[] n = {0};
        Counter counter = (Counter) Proxy.newProxyInstance(Counter.class.getClassLoader(),
                new Class<?>[] {Counter.class}, (proxy, method, a) -> ++n[0] * 10);
        int total = 0;
        for (int i = 0; i < 5; i++) {
            total += counter.next();
        }
        System.out.println(s + " " + tracing.calls + " " + total);
    }
}
