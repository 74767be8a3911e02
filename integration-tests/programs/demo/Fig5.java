package demo;

/**
 * The example program of ProfBuilder's report (Cooper, Lee, Zorn, CU-CS-853-98), Fig. 5, typed
 * anew: main calls A ten times, each A calls B, C, B ten times, and B and C each call D. Every
 * method prints its name. Calls: main 1, A 10, B 200, C 100, D under B 200, D under C 100: 611
 * in total, as in the report's Fig. 7.
 */
public class Fig5 {
    // The calls are the report's. Its instruction counts agree for B, C and D; for main it has 60
    // and for A 800 (80 a call), 9 fewer per loop, because the javac of 1998 put a loop's test at
    // the bottom: one goto before the loop instead of one per iteration.
    // expect: demo.Fig5.main([Ljava/lang/String;)V calls=1 bytecodes=69
    // expect: demo.Fig5.main([Ljava/lang/String;)V;demo.Fig5.A()V calls=10 bytecodes=890
    // expect: demo.Fig5.main([Ljava/lang/String;)V;demo.Fig5.A()V;demo.Fig5.B()V calls=200 bytecodes=1000
    // expect: demo.Fig5.main([Ljava/lang/String;)V;demo.Fig5.A()V;demo.Fig5.B()V;demo.Fig5.D()V calls=200 bytecodes=800
    // expect: demo.Fig5.main([Ljava/lang/String;)V;demo.Fig5.A()V;demo.Fig5.C()V calls=100 bytecodes=500
    // expect: demo.Fig5.main([Ljava/lang/String;)V;demo.Fig5.A()V;demo.Fig5.C()V;demo.Fig5.D()V calls=100 bytecodes=400
    public static void main(String[] args) {
        System.out.println("main()");
        for (int i = 0; i < 10; i++) {
            A();
        }
    }

    public static void A() {
        System.out.println("A()");
        for (int i = 0; i < 10; i++) {
            B();
            C();
            B();
        }
    }

    public static void B() {
        System.out.println("B()");
        D();
    }

    public static void C() {
        System.out.println("C()");
        D();
    }

    public static void D() {
        System.out.println("D()");
    }
}
