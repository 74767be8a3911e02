package svc;

import java.util.HashMap;
import java.util.Map;

/** A repository with a final method (mocked only by the inline mock maker). */
public class Repo {
    private final Map<Integer, String> names = new HashMap<>();

    public Repo() {
        names.put(1, "ada");
        names.put(2, "grace");
    }

    public String find(int id) {
        String name = names.get(id);
        if (name == null) {
            throw new IllegalArgumentException("no user " + id);
        }
        return name;
    }

    public final int count() {
        return names.size();
    }

    public void save(int id, String name) {
        names.put(id, name);
    }
}
