package demo;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * equals, hashCode, toString and compareTo of program classes called back by the JDK: HashMap and
 * HashSet (with deliberate hash collisions), List.contains and indexOf, string concatenation
 * (invokedynamic) and String.valueOf. Hash codes are computed, never identity-based, so the
 * table layouts and the number of equals calls are the same on every run.
 */
public class ObjectMethods {
    static final class Key implements Comparable<Key> {
        final String name;
        final int bucket;

        Key(String name, int bucket) {
            this.name = name;
            this.bucket = bucket;
        }

        @Override
        public boolean equals(Object o) {
            if (this == o) {
                return true;
            }
            if (!(o instanceof Key)) {
                return false;
            }
            Key k = (Key) o;
            return bucket == k.bucket && name.equals(k.name);
        }

        @Override
        public int hashCode() {
            return bucket; // few buckets: many collisions
        }

        @Override
        public String toString() {
            return name + "@" + bucket;
        }

        @Override
        public int compareTo(Key o) {
            int c = name.compareTo(o.name);
            return c != 0 ? c : Integer.compare(bucket, o.bucket);
        }
    }

    public static void main(String[] args) {
        Map<Key, Integer> map = new HashMap<>();
        List<Key> keys = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            Key k = new Key("k" + (i % 17), i % 3);
            keys.add(k);
            map.merge(k, 1, Integer::sum);
        }
        Set<Key> set = new HashSet<>(keys);
        int found = 0;
        for (int i = 0; i < 20; i++) {
            if (set.contains(new Key("k" + i, i % 3))) {
                found++;
            }
        }
        int index = keys.indexOf(new Key("k5", 2));
        String text = "first " + keys.get(0) + " last " + String.valueOf(keys.get(29));
        System.out.println(map.size() + " " + set.size() + " " + found + " " + index + " " + text + " "
                + keys.stream().sorted().findFirst().orElseThrow());
    }
}
