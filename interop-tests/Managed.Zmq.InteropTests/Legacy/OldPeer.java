import org.zeromq.ZMQ;

/** A ZMTP 2.0 peer: JeroMQ 0.3.6 (a port of libzmq 3.2). Args: rep|req bind | rep|req connect ENDPOINT. */
public class OldPeer {
    public static void main(String[] args) {
        ZMQ.Context ctx = ZMQ.context(1);
        ZMQ.Socket s = ctx.socket(args[0].equals("rep") ? ZMQ.REP : ZMQ.REQ);
        s.setLinger(2000);
        s.setReceiveTimeOut(10000);
        if (args[1].equals("bind")) {
            int port = s.bindToRandomPort("tcp://127.0.0.1");
            System.out.println("port " + port);
            System.out.flush();
        } else {
            s.connect(args[2]);
        }
        if (args[0].equals("rep")) {
            String m = s.recvStr();
            s.send("echo:" + m);
            System.out.println("got " + m);
        } else {
            s.send("hello from jeromq");
            System.out.println("reply " + s.recvStr());
        }
        System.out.flush();
        s.close();
        ctx.term();
    }
}
