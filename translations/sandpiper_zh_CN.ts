<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" sourcelanguage="en">
<context>
    <name>AboutDialog</name>
    <message>
        <location filename="../ui/aboutdialog.ui" line="6"/>
        <source>About Sandpiper</source>
        <translation>关于 Sandpiper</translation>
    </message>
    <message>
        <location filename="../ui/aboutdialog.ui" line="26"/>
        <source>Chat with language models that run Python in a local sandbox, draw charts and search the web.</source>
        <translation>与语言模型聊天：它们可以在本地沙箱中运行 Python、绘制图表并搜索网络。</translation>
    </message>
    <message>
        <location filename="../ui/aboutdialog.ui" line="52"/>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
</context>
<context>
    <name>Sandpiper::AboutDialog</name>
    <message>
        <location filename="../src/app/aboutdialog.cpp" line="15"/>
        <source>Qt %1 · sandbox image %2 · MIT License</source>
        <translation>Qt %1 · 沙箱镜像 %2 · MIT 许可证</translation>
    </message>
</context>
<context>
    <name>Sandpiper::MainWindow</name>
    <message>
        <location filename="../src/app/mainwindow.cpp" line="23"/>
        <source>Send</source>
        <translation>发送</translation>
    </message>
    <message>
        <location filename="../src/app/mainwindow.cpp" line="25"/>
        <source>Sandpiper</source>
        <translation>Sandpiper</translation>
    </message>
    <message>
        <location filename="../src/app/mainwindow.cpp" line="29"/>
        <source>Conversations</source>
        <translation>对话</translation>
    </message>
    <message>
        <location filename="../src/app/mainwindow.cpp" line="32"/>
        <source>Chat</source>
        <translation>聊天</translation>
    </message>
    <message>
        <location filename="../src/app/mainwindow.cpp" line="33"/>
        <source>Ask a question: the model can run Python, draw charts and search the web.</source>
        <translation>提个问题：模型可以运行 Python、绘制图表并搜索网络。</translation>
    </message>
    <message>
        <location filename="../src/app/mainwindow.cpp" line="35"/>
        <source>Message</source>
        <translation>消息</translation>
    </message>
    <message>
        <location filename="../src/app/mainwindow.cpp" line="36"/>
        <source>Type a message</source>
        <translation>输入消息</translation>
    </message>
    <message>
        <location filename="../src/app/mainwindow.cpp" line="39"/>
        <source>Send message</source>
        <translation>发送消息</translation>
    </message>
    <message>
        <location filename="../src/app/mainwindow.cpp" line="58"/>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <location filename="../src/app/mainwindow.cpp" line="59"/>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <location filename="../src/app/mainwindow.cpp" line="61"/>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <location filename="../src/app/mainwindow.cpp" line="62"/>
        <source>&amp;About Sandpiper</source>
        <translation>关于 Sandpiper(&amp;A)</translation>
    </message>
</context>
</TS>
