// Train and test a Weka classifier on every split of one dataset in one JVM: the dataset is one ARFF
// file, the splits a text file of row indices, so the JVM starts and the ARFF is parsed once per dataset.
// Usage: java -cp weka.jar:. WekaFolds <data.arff> <splits.txt> <out.txt> [filter:<class> <opts> --]
//        <classifier class> [options...]
// splits.txt: per split three lines, "S <repeat> <fold> <seed>", "R <training rows>", "T <test rows>"
// (0-based row indices of the ARFF file, space-separated). An option "{seed}" is replaced by the split's
// seed. A filter (e.g. supervised Discretize) is fitted on each split's training rows only. A split whose
// classifier throws gets one line "F <repeat> <fold> <exception>" and the next split goes on.
// out.txt: per split a line "S <repeat> <fold> train_cpu_s=.. train_wall_s=.. test_cpu_s=.. test_wall_s=.."
// (CPU seconds of the thread that builds and classifies, ThreadMXBean), then for a BayesNet one line
// "P <node> <cardinality> <parent> <parent> ..." per node (attribute indices, the class last), then one
// line "D p_0,p_1,..." per test row, in the order of its "T" line, at full double precision.
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.FileReader;
import java.io.FileWriter;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import weka.classifiers.Classifier;
import weka.classifiers.bayes.BayesNet;
import weka.core.Instances;

public class WekaFolds {
    static Instances rows(Instances all, String line) {
        String[] f = line.substring(2).trim().split(" ");
        Instances out = new Instances(all, f.length);
        for (String s : f) out.add(all.instance(Integer.parseInt(s)));
        return out;
    }

    public static void main(String[] args) throws Exception {
        Instances all = WekaIO.read(args[0]);
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        BufferedReader splits = new BufferedReader(new FileReader(args[1]));
        BufferedWriter out = new BufferedWriter(new FileWriter(args[2]), 1 << 20);
        String head;
        while ((head = splits.readLine()) != null) {
            if (head.isEmpty()) continue;
            String[] h = head.split(" ");
            String seed = h[3];
            Instances[] data = {rows(all, splits.readLine()), rows(all, splits.readLine())};
            int i = WekaIO.filter(args, 3, data);
            Instances train = data[0], test = data[1];
            String name = args[i];
            String[] opts = Arrays.copyOfRange(args, i + 1, args.length);
            for (int k = 0; k < opts.length; k++) opts[k] = opts[k].replace("{seed}", seed);
            Classifier c;
            long c0, c1, c2, t0, t1, t2;
            double[][] dist = new double[test.numInstances()][];
            try {
                c = Classifier.forName(name, opts);
                c0 = mx.getCurrentThreadCpuTime();
                t0 = System.nanoTime();
                c.buildClassifier(train);
                c1 = mx.getCurrentThreadCpuTime();
                t1 = System.nanoTime();
                for (int k = 0; k < test.numInstances(); k++) dist[k] = c.distributionForInstance(test.instance(k));
                c2 = mx.getCurrentThreadCpuTime();
                t2 = System.nanoTime();
            } catch (Exception e) {   // this split fails; the others go on
                out.write("F " + h[1] + " " + h[2] + " " + (e.toString() + " at " + (e.getStackTrace().length > 0
                          ? e.getStackTrace()[0] : "?")).replace('\n', ' ') + "\n");
                out.flush();
                continue;
            }
            out.write("S " + h[1] + " " + h[2] + " train_cpu_s=" + (c1 - c0) / 1e9 + " train_wall_s=" + (t1 - t0) / 1e9
                      + " test_cpu_s=" + (c2 - c1) / 1e9 + " test_wall_s=" + (t2 - t1) / 1e9 + "\n");
            if (c instanceof BayesNet) {
                BayesNet bn = (BayesNet) c;
                for (int node = 0; node < bn.getNrOfNodes(); node++) {
                    StringBuilder sb = new StringBuilder("P ").append(node).append(' ').append(bn.getCardinality(node));
                    for (int p = 0; p < bn.getNrOfParents(node); p++) sb.append(' ').append(bn.getParent(node, p));
                    out.write(sb.append('\n').toString());
                }
            }
            StringBuilder sb = new StringBuilder();
            for (double[] d : dist) {
                sb.append("D ");
                WekaIO.appendDoubles(sb, d);
                sb.append('\n');
            }
            out.write(sb.toString());
            out.flush();
        }
        out.close();
        splits.close();
    }
}
