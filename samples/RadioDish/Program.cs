// RADIO/DISH: thread-safe one-way distribution by exact group, over tcp and udp (docs/radio-dish.md).
using Managed.Zmq;

using var context = new Context();

using var radio = new Socket(context, SocketType.Radio);
radio.Bind("tcp://127.0.0.1:*");

using var dish = new Socket(context, SocketType.Dish);
dish.SetOption(SocketOption.Rcvtimeo, 50);
dish.Connect(radio.GetOptionString(SocketOption.Last_Endpoint));
dish.Join("weather"); // exact match: "weather.london" or "weathe" would not match

// Like PUB, a RADIO drops what it sends before a DISH's JOIN has reached it: send until one arrives.
using var received = new Message();
while (true)
{
    using var probe = new Message("hello");
    probe.Group = "weather";
    radio.Send(probe);
    try
    {
        dish.Recv(received);
        break;
    }
    catch (ZmqException e) when (e.ErrorNumber == ZmqConstants.EAGAIN)
    {
        // not joined yet: try again
    }
}

Console.WriteLine($"joined: {received.Group}");
dish.SetOption(SocketOption.Rcvtimeo, 5000);

using (var skipped = new Message("not joined"))
{
    skipped.Group = "news";
    radio.Send(skipped); // dropped by the RADIO: no DISH joined "news"
}

using (var report = new Message("12 C"))
{
    report.Group = "weather";
    radio.Send(report);
}

do
{
    dish.Recv(received); // skip the probes still in flight
}
while (received.ToString() == "hello");
Console.WriteLine($"{received.Group}: {received}");

// udp: the DISH binds, the RADIO connects; one datagram per message, the DISH filters by group.
using var udpDish = new Socket(context, SocketType.Dish);
udpDish.SetOption(SocketOption.Rcvtimeo, 5000);
udpDish.Bind("udp://127.0.0.1:*");
udpDish.Join("alerts");

using var udpRadio = new Socket(context, SocketType.Radio);
udpRadio.Connect(udpDish.GetOptionString(SocketOption.Last_Endpoint));
using (var alert = new Message("storm"))
{
    alert.Group = "alerts";
    udpRadio.Send(alert);
}

udpDish.Recv(received);
Console.WriteLine($"udp {received.Group}: {received}");
