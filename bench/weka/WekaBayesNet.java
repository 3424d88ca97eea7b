// Train Weka's BayesNet on one ARFF file; print the learned structure and the class distributions
// of another ARFF file at full double precision.
// Usage: java -cp weka.jar:. WekaBayesNet <train.arff> <test.arff> [filter:<class> <opts> --] <BayesNet options...>
// Output: one line "P <node> <parent> <parent> ..." per node (node and parent indices are attribute
// indices of the (filtered) training data, the class last), then one line "D p_0,p_1,..." per test row.
import java.util.Arrays;
import weka.classifiers.bayes.BayesNet;
import weka.core.Instances;

public class WekaBayesNet {
    public static void main(String[] args) throws Exception {
        Instances[] data = {WekaIO.read(args[0]), WekaIO.read(args[1])};
        int i = WekaIO.filter(args, 2, data);
        Instances train = data[0], test = data[1];
        BayesNet bn = new BayesNet();
        bn.setOptions(Arrays.copyOfRange(args, i, args.length));
        long t0 = System.nanoTime();
        bn.buildClassifier(train);
        long t1 = System.nanoTime();
        StringBuilder sb = new StringBuilder();
        for (int node = 0; node < bn.getNrOfNodes(); node++) {
            sb.append("P ").append(node);
            for (int p = 0; p < bn.getNrOfParents(node); p++) sb.append(' ').append(bn.getParent(node, p));
            sb.append('\n');
        }
        for (int k = 0; k < test.numInstances(); k++) {
            double[] d = bn.distributionForInstance(test.instance(k));
            sb.append("D ");
            WekaIO.appendDoubles(sb, d);
            sb.append('\n');
        }
        long t2 = System.nanoTime();
        System.out.print(sb);
        System.err.println("#train_s=" + (t1 - t0) / 1e9 + " test_s=" + (t2 - t1) / 1e9);
    }
}
