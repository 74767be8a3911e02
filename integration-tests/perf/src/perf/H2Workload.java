package perf;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;

/** H2 in memory: inserts, index lookups, joins, aggregates and updates. */
public final class H2Workload {
    private H2Workload() {}

    public static void main(String[] args) throws Exception {
        int[] run = {0};
        Workload.main("h2", args, () -> round(run[0]++));
    }

    private static long round(int n) throws Exception {
        long checksum = 0;
        try (Connection c = DriverManager.getConnection("jdbc:h2:mem:perf" + n)) {
            try (Statement s = c.createStatement()) {
                s.execute("create table customer(id int primary key, name varchar(40), region int)");
                s.execute("create table orders(id int primary key, customer int, amount int, order_day int)");
                s.execute("create index orders_customer on orders(customer)");
            }
            try (PreparedStatement p = c.prepareStatement("insert into customer values (?, ?, ?)")) {
                for (int i = 0; i < 5_000; i++) {
                    p.setInt(1, i);
                    p.setString(2, "customer " + i);
                    p.setInt(3, i % 17);
                    p.executeUpdate();
                }
            }
            try (PreparedStatement p = c.prepareStatement("insert into orders values (?, ?, ?, ?)")) {
                long seed = 42;
                for (int i = 0; i < 40_000; i++) {
                    seed = seed * 6364136223846793005L + 1442695040888963407L;
                    p.setInt(1, i);
                    p.setInt(2, (int) ((seed >>> 33) % 5_000));
                    p.setInt(3, (int) ((seed >>> 17) % 1_000));
                    p.setInt(4, i % 365);
                    p.executeUpdate();
                }
            }
            try (PreparedStatement p = c.prepareStatement("select sum(amount) from orders where customer = ?")) {
                for (int i = 0; i < 5_000; i += 3) {
                    p.setInt(1, i);
                    try (ResultSet r = p.executeQuery()) {
                        r.next();
                        checksum += r.getLong(1);
                    }
                }
            }
            try (Statement s = c.createStatement()) {
                s.execute("update orders set amount = amount + 1 where order_day < 30");
                checksum += sum(s, "select c.region, count(*), sum(o.amount) from customer c join orders o"
                        + " on o.customer = c.id group by c.region order by c.region");
                checksum += sum(s, "select order_day, max(amount), min(amount), avg(amount) from orders group by order_day");
                checksum += sum(s, "select c.name, count(o.id) from customer c left join orders o on o.customer = c.id"
                        + " where c.region in (1, 2, 3) group by c.name having count(o.id) > 8");
            }
        }
        return checksum;
    }

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
