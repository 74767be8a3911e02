package demo;

/**
 * The rewriting example of the JP paper (exact profiling by program transformation), Fig. 4,
 * typed anew: one call of f, which calls h and g(i) for i = 1..10, and g(i) calls h i times.
 *
 * The paper's tree is rooted at f: f = 1, f.h = 10, f.g = 10, f.g.h = 55, and f itself runs
 * 106 bytecodes (2 before the loop, 11 loop tests of 3, 10 bodies of 7, 1 return). Here f is
 * called from main, so the folded contexts carry main in front:
 *   demo.Fig4.main([Ljava/lang/String;)V;demo.Fig4.f()V                          calls 1, bytecodes 106
 *   demo.Fig4.main([Ljava/lang/String;)V;demo.Fig4.f()V;demo.Fig4.h()V             calls 10
 *   demo.Fig4.main([Ljava/lang/String;)V;demo.Fig4.f()V;demo.Fig4.g(I)V            calls 10
 *   demo.Fig4.main([Ljava/lang/String;)V;demo.Fig4.f()V;demo.Fig4.g(I)V;demo.Fig4.h()V  calls 55
 */
public class Fig4 {
    void f() {
        for (int i = 1; i <= 10; ++i) {
            h();
            g(i);
        }
    }
    // <b>markup</b> & <script>alert(1)</script> is text in the Source view
    void g(int i) {
        for (int j = 1; j <= i; ++j) {
            h();
        }
    }

    void h() {}

    // expect: demo.Fig4.main([Ljava/lang/String;)V;demo.Fig4.f()V calls=1 bytecodes=106
    // expect: demo.Fig4.main([Ljava/lang/String;)V;demo.Fig4.f()V;demo.Fig4.h()V calls=10 bytecodes=10
    // expect: demo.Fig4.main([Ljava/lang/String;)V;demo.Fig4.f()V;demo.Fig4.g(I)V calls=10 bytecodes=445
    // expect: demo.Fig4.main([Ljava/lang/String;)V;demo.Fig4.f()V;demo.Fig4.g(I)V;demo.Fig4.h()V calls=55 bytecodes=55
    public static void main(String[] args) {
        new Fig4().f();
    }
}
