// PUB/SUB: one publisher, subscribers that filter by topic prefix (docs/getting-started.md).
using Managed.Zmq;

using var context = new Context();

// XPUB is a PUB that also receives its subscribers' subscriptions. A plain PUB drops what it
// publishes before a subscription has arrived (the "slow joiner"); here the publisher waits for it.
using var publisher = new Socket(context, SocketType.XPub);
publisher.Bind("tcp://127.0.0.1:*");
string endpoint = publisher.GetOptionString(SocketOption.Last_Endpoint);

using var subscriber = new Socket(context, SocketType.Sub);
subscriber.SetOption(SocketOption.Rcvtimeo, 5000);
subscriber.Connect(endpoint);
subscriber.Subscribe("weather."); // a prefix: matches every topic that starts with it

byte[] subscription = publisher.RecvBytes(); // 1 = subscribe, then the prefix
Console.WriteLine($"subscribed: {System.Text.Encoding.UTF8.GetString(subscription, 1, subscription.Length - 1)}");

// A topic frame, then the body: the subscriber's filter looks at the first frame only.
publisher.SendMultipart("weather.london", "12 C");
publisher.SendMultipart("news.london", "filtered out: no subscription matches");
publisher.SendMultipart("weather.paris", "14 C");

for (int i = 0; i < 2; i++)
{
    using var message = subscriber.RecvMultipart();
    Console.WriteLine($"{message.PeekFirstString()}: {message.PeekLastString()}");
}
