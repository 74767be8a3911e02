package svc;

/** Uses a repository through a greeter; an abstract template with a hook. */
public class Service extends Template implements Greeter {
    private final Repo repo;

    public Service(Repo repo) {
        this.repo = repo;
    }

    @Override
    public String name(int id) {
        return repo.find(id);
    }

    public String welcomeAll() {
        StringBuilder out = new StringBuilder();
        for (int id = 1; id <= repo.count(); id++) {
            out.append(greet(id)).append('\n');
        }
        return out.toString();
    }

    @Override
    protected int weight(String word) {
        return word.length() * 2;
    }
}
