// Time a Weka classifier: build it on one ARFF file and classify another, `repeats` times in one JVM
// (later repeats are JIT-warm), printing one line "train_s=<s> test_s=<s>" per repeat.
// Usage: java -cp weka.jar:. WekaTime <train.arff> <test.arff> <repeats> <classifier class> [options...]
import java.util.Arrays;
import weka.classifiers.Classifier;
import weka.core.Instances;

public class WekaTime {
    public static void main(String[] args) throws Exception {
        Instances train = WekaIO.read(args[0]);
        Instances test = WekaIO.read(args[1]);
        int repeats = Integer.parseInt(args[2]);
        String name = args[3];
        String[] opts = Arrays.copyOfRange(args, 4, args.length);
        double checksum = 0;
        for (int rep = 0; rep < repeats; rep++) {
            Classifier c = Classifier.forName(name, opts.clone());
            long t0 = System.nanoTime();
            c.buildClassifier(train);
            long t1 = System.nanoTime();
            for (int k = 0; k < test.numInstances(); k++) {
                double[] d = c.distributionForInstance(test.instance(k));
                checksum += d[0];
            }
            long t2 = System.nanoTime();
            System.out.println("train_s=" + (t1 - t0) / 1e9 + " test_s=" + (t2 - t1) / 1e9);
        }
        System.err.println("#checksum=" + checksum);
    }
}
