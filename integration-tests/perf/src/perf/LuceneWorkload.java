package perf;

import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.PhraseQuery;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.store.ByteBuffersDirectory;

/**
 * Lucene: indexes generated pseudo-text (a fixed vocabulary drawn with a skewed, seeded random
 * distribution) in memory, then runs term, boolean and phrase queries, counting hits and
 * collecting top documents. Searches run on the calling thread (no executor), so the work is
 * deterministic.
 */
public final class LuceneWorkload {
    private LuceneWorkload() {}

    public static void main(String[] args) throws Exception {
        String[] words = new String[3_000];
        long seed = 7;
        for (int i = 0; i < words.length; i++) {
            StringBuilder word = new StringBuilder();
            for (int j = 0; j < 3 + i % 7; j++) {
                seed = seed * 6364136223846793005L + 1442695040888963407L;
                word.append((char) ('a' + (seed >>> 40) % 26));
            }
            words[i] = word.toString();
        }
        int documents = Workload.size(8_000, 2_000);
        int queries = Workload.size(600, 150);
        Workload.main("lucene", args, 2, () -> round(words, documents, queries));
    }

    private static long round(String[] words, int documents, int queries) throws Exception {
        long seed = 11;
        try (ByteBuffersDirectory directory = new ByteBuffersDirectory()) {
            IndexWriterConfig config = new IndexWriterConfig(new StandardAnalyzer());
            try (IndexWriter writer = new IndexWriter(directory, config)) {
                for (int d = 0; d < documents; d++) {
                    StringBuilder text = new StringBuilder();
                    for (int w = 0; w < 40; w++) {
                        seed = seed * 6364136223846793005L + 1442695040888963407L;
                        // Skewed: low word numbers are frequent, as in real text.
                        int rank = (int) (((seed >>> 33) % words.length) * ((seed >>> 20) % 1000) / 1000);
                        text.append(words[rank]).append(' ');
                    }
                    Document doc = new Document();
                    doc.add(new TextField("body", text.toString(), Field.Store.NO));
                    writer.addDocument(doc);
                }
                writer.forceMerge(1);
            }
            long checksum = 0;
            try (DirectoryReader reader = DirectoryReader.open(directory)) {
                IndexSearcher searcher = new IndexSearcher(reader);
                for (int q = 0; q < queries; q++) {
                    String a = words[q % 200];
                    String b = words[(q * 7) % 500];
                    checksum = Workload.mix(checksum, searcher.count(new TermQuery(new Term("body", a))));
                    checksum = Workload.mix(checksum, searcher.count(new BooleanQuery.Builder()
                            .add(new TermQuery(new Term("body", a)), BooleanClause.Occur.MUST)
                            .add(new TermQuery(new Term("body", b)), BooleanClause.Occur.SHOULD)
                            .build()));
                    checksum = Workload.mix(checksum, searcher.count(new PhraseQuery(1, "body", a, b)));
                    for (ScoreDoc hit : searcher.search(new BooleanQuery.Builder()
                            .add(new TermQuery(new Term("body", a)), BooleanClause.Occur.SHOULD)
                            .add(new TermQuery(new Term("body", b)), BooleanClause.Occur.SHOULD)
                            .build(), 10).scoreDocs) {
                        checksum = Workload.mix(checksum, hit.doc);
                    }
                }
            }
            return checksum;
        }
    }
}
