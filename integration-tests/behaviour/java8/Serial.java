import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.ObjectStreamClass;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32;

/**
 * Serialization of objects with private writeObject, readObject and readResolve (which the JDK
 * finds by name and descriptor, so they must keep both), transient fields, an object graph with
 * a cycle, and classes without a serialVersionUID, whose computed default value is printed:
 * a rewrite may not change it.
 */
public class Serial {
    static class Point implements Serializable {
        final int x;
        final int y;
        transient long cache;
        private List<String> notes = new ArrayList<>();

        Point(int x, int y) {
            this.x = x;
            this.y = y;
            this.cache = (long) x * y;
        }

        private void writeObject(ObjectOutputStream out) throws IOException {
            out.defaultWriteObject();
            out.writeLong(cache * 2);
            for (int i = 0; i < 3; i++) out.writeInt(x + i);
        }

        private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
            in.defaultReadObject();
            cache = in.readLong() / 2;
            int sum = 0;
            for (int i = 0; i < 3; i++) sum += in.readInt();
            notes.add("read sum " + sum);
        }

        private int helper(int a, long b) {
            return (int) (a + b);
        }

        @Override
        public String toString() {
            return "Point(" + x + "," + y + ") cache " + cache + " notes " + notes + " h " + helper(1, 2L);
        }
    }

    static final class Singleton implements Serializable {
        static final Singleton INSTANCE = new Singleton();

        private Object readResolve() {
            return INSTANCE;
        }
    }

    static class Node implements Serializable {
        final String name;
        Node next;
        double weight;

        Node(String name, double weight) {
            this.name = name;
            this.weight = weight;
        }
    }

    static byte[] write(Object o) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(o);
        }
        return bytes.toByteArray();
    }

    static Object read(byte[] bytes) throws IOException, ClassNotFoundException {
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes))) {
            return in.readObject();
        }
    }

    static String crc(byte[] bytes) {
        CRC32 crc = new CRC32();
        crc.update(bytes, 0, bytes.length);
        return bytes.length + " bytes, crc " + Long.toHexString(crc.getValue());
    }

    public static void main(String[] args) throws Exception {
        for (Class<?> c : new Class<?>[] {Point.class, Singleton.class, Node.class}) {
            System.out.println(c.getSimpleName() + " serialVersionUID " + ObjectStreamClass.lookup(c).getSerialVersionUID());
        }
        Point p = new Point(3, 4);
        byte[] bytes = write(p);
        System.out.println("point " + crc(bytes));
        System.out.println("back " + read(bytes));
        System.out.println("singleton same " + (read(write(Singleton.INSTANCE)) == Singleton.INSTANCE));
        Node a = new Node("a", 0.5);
        Node b = new Node("b", 1.5);
        a.next = b;
        b.next = a;
        byte[] graph = write(a);
        Node back = (Node) read(graph);
        System.out.println("graph " + crc(graph) + " cycle " + (back.next.next == back) + " " + back.next.name
                + " " + back.next.weight);
    }
}
