package perf;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;

/**
 * H2 in memory: creates two tables (customers and their orders, 50,000 rows in all), then runs
 * index and primary-key lookups, updates, joins and aggregates. Each round uses a fresh database.
 */
public final class H2Workload {
    private H2Workload() {}

    public static void main(String[] args) throws Exception {
        int customers = Workload.size(5_000, 1_000);
        int orders = Workload.size(45_000, 9_000);
        int[] run = {0};
        Workload.main("h2", args, 1, () -> round(run[0]++, customers, orders));
    }

    private static long round(int n, int customers, int orders) throws Exception {
        long checksum = 0;
        try (Connection c = DriverManager.getConnection("jdbc:h2:mem:perf" + n)) {
            try (Statement s = c.createStatement()) {
                s.execute("create table customer(id int primary key, name varchar(40), region int)");
                s.execute("create table orders(id int primary key, customer int, amount int, order_day int)");
                s.execute("create index orders_customer on orders(customer)");
            }
            try (PreparedStatement p = c.prepareStatement("insert into customer values (?, ?, ?)")) {
                for (int i = 0; i < customers; i++) {
                    p.setInt(1, i);
                    p.setString(2, "customer " + i);
                    p.setInt(3, i % 17);
                    p.executeUpdate();
                }
            }
            try (PreparedStatement p = c.prepareStatement("insert into orders values (?, ?, ?, ?)")) {
                long seed = 42;
                for (int i = 0; i < orders; i++) {
                    seed = seed * 6364136223846793005L + 1442695040888963407L;
                    p.setInt(1, i);
                    p.setInt(2, (int) ((seed >>> 33) % customers));
                    p.setInt(3, (int) ((seed >>> 17) % 1_000));
                    p.setInt(4, i % 365);
                    p.executeUpdate();
                }
            }
            // Index lookups (secondary index) and primary-key lookups.
            try (PreparedStatement p = c.prepareStatement("select sum(amount), count(*) from orders where customer = ?")) {
                for (int i = 0; i < customers; i += 3) {
                    p.setInt(1, i);
                    try (ResultSet r = p.executeQuery()) {
                        r.next();
                        checksum = Workload.mix(checksum, r.getLong(1) * 31 + r.getLong(2));
                    }
                }
            }
            try (PreparedStatement p = c.prepareStatement("select amount, order_day from orders where id = ?")) {
                for (int i = 0; i < orders; i += 7) {
                    p.setInt(1, i);
                    try (ResultSet r = p.executeQuery()) {
                        r.next();
                        checksum = Workload.mix(checksum, r.getInt(1) * 400L + r.getInt(2));
                    }
                }
            }
            // Updates: one by primary key in a loop, one over a range.
            try (PreparedStatement p = c.prepareStatement("update orders set amount = amount * 2 where id = ?")) {
                for (int i = 0; i < orders; i += 11) {
                    p.setInt(1, i);
                    checksum = Workload.mix(checksum, p.executeUpdate());
                }
            }
            try (Statement s = c.createStatement()) {
                checksum = Workload.mix(checksum, s.executeUpdate("update orders set amount = amount + 1 where order_day < 30"));
                // Joins and aggregates.
                checksum = Workload.mix(checksum, sum(s, "select c.region, count(*), sum(o.amount) from customer c join orders o"
                        + " on o.customer = c.id group by c.region order by c.region"));
                checksum = Workload.mix(checksum, sum(s, "select order_day, max(amount), min(amount), avg(amount) from orders"
                        + " group by order_day order by order_day"));
                checksum = Workload.mix(checksum, sum(s, "select c.name, count(o.id) from customer c left join orders o"
                        + " on o.customer = c.id where c.region in (1, 2, 3) group by c.name having count(o.id) > 8"
                        + " order by c.name"));
                checksum = Workload.mix(checksum, sum(s, "select o.order_day, count(distinct c.region) from orders o join customer c"
                        + " on c.id = o.customer where o.amount > 900 group by o.order_day order by o.order_day"));
            }
        }
        return checksum;
    }

    /** A checksum of a result set, row by row in the order given. */
    private static long sum(Statement s, String query) throws Exception {
        long sum = 0;
        try (ResultSet r = s.executeQuery(query)) {
            int columns = r.getMetaData().getColumnCount();
            while (r.next()) {
                for (int i = 1; i <= columns; i++) {
                    sum = sum * 31 + r.getString(i).hashCode();
                }
            }
        }
        return sum;
    }
}
