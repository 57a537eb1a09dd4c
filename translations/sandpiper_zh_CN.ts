<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN" sourcelanguage="en">
<context>
    <name>AboutDialog</name>
    <message>
        <location filename="../ui/aboutdialog.ui" line="6"/>
        <location filename="../build/dev/src/app/ui_aboutdialog.h" line="79"/>
        <source>About Sandpiper</source>
        <translation>关于 Sandpiper</translation>
    </message>
    <message>
        <location filename="../ui/aboutdialog.ui" line="26"/>
        <location filename="../build/dev/src/app/ui_aboutdialog.h" line="80"/>
        <source>Chat with language models that run Python in a local sandbox, draw charts and search the web.</source>
        <translation>与语言模型聊天：它们可以在本地沙箱中运行 Python、绘制图表并搜索网络。</translation>
    </message>
    <message>
        <location filename="../ui/aboutdialog.ui" line="52"/>
        <location filename="../build/dev/src/app/ui_aboutdialog.h" line="82"/>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
</context>
<context>
    <name>ContentFilter</name>
    <message>
        <location filename="../src/core/llm/contentfilter.cpp" line="225"/>
        <source>The model&apos;s tool call was cut off before it was complete, so it was not run; it is shown as text.</source>
        <translation>模型的工具调用在写完之前就被截断了，因此没有运行，而是以文本形式显示。</translation>
    </message>
</context>
<context>
    <name>ContextShortener</name>
    <message>
        <location filename="../src/core/llm/contextshortener.cpp" line="174"/>
        <source>leaves out the oldest turn</source>
        <translation>省略了最早的一轮对话</translation>
    </message>
    <message>
        <location filename="../src/core/llm/contextshortener.cpp" line="176"/>
        <source>leaves out the %1 oldest turns</source>
        <translation>省略了最早的 %1 轮对话</translation>
    </message>
    <message>
        <location filename="../src/core/llm/contextshortener.cpp" line="178"/>
        <source>leaves out an earlier tool round</source>
        <translation>省略了较早的一轮工具调用</translation>
    </message>
    <message>
        <location filename="../src/core/llm/contextshortener.cpp" line="180"/>
        <source>leaves out %1 earlier tool rounds</source>
        <translation>省略了较早的 %1 轮工具调用</translation>
    </message>
    <message>
        <location filename="../src/core/llm/contextshortener.cpp" line="182"/>
        <source>shortens a tool result</source>
        <translation>缩短了一个工具结果</translation>
    </message>
    <message>
        <location filename="../src/core/llm/contextshortener.cpp" line="184"/>
        <source>shortens %1 tool results</source>
        <translation>缩短了 %1 个工具结果</translation>
    </message>
    <message>
        <location filename="../src/core/llm/contextshortener.cpp" line="187"/>
        <source>To fit the model&apos;s context window of %1 tokens, this request %2. The conversation itself is kept in full.</source>
        <translation>为了放入模型 %1 个词元的上下文窗口，本次请求%2。对话本身完整保留。</translation>
    </message>
    <message>
        <location filename="../src/core/llm/contextshortener.cpp" line="192"/>
        <source>The last message and what it needs come close to or exceed the model&apos;s context window of %1 tokens; the server may refuse the request.</source>
        <translation>最后一条消息及其所需内容已接近或超过模型 %1 个词元的上下文窗口，服务器可能会拒绝该请求。</translation>
    </message>
</context>
<context>
    <name>ProviderDetector</name>
    <message>
        <location filename="../src/core/llm/providerdetector.cpp" line="19"/>
        <source>Connected: 1 model available.</source>
        <translation>已连接：有 1 个模型可用。</translation>
    </message>
    <message>
        <location filename="../src/core/llm/providerdetector.cpp" line="20"/>
        <source>Connected: %1 models available.</source>
        <translation>已连接：有 %1 个模型可用。</translation>
    </message>
    <message>
        <location filename="../src/core/llm/providerdetector.cpp" line="24"/>
        <source>The server refused the API key (HTTP %1). Check the key.</source>
        <translation>服务器拒绝了 API 密钥（HTTP %1）。请检查密钥。</translation>
    </message>
    <message>
        <location filename="../src/core/llm/providerdetector.cpp" line="30"/>
        <source>The server could not be reached: %1</source>
        <translation>无法连接到服务器：%1</translation>
    </message>
    <message>
        <location filename="../src/core/llm/providerdetector.cpp" line="35"/>
        <source>The server answered, but not like an OpenAI-compatible API. Check that the base URL ends where /chat/completions would start (often /v1).</source>
        <translation>服务器有响应，但不像是 OpenAI 兼容的 API。请确认基础 URL 的结尾正好是 /chat/completions 的起点（通常是 /v1）。</translation>
    </message>
</context>
<context>
    <name>SandboxHealth</name>
    <message>
        <location filename="../src/core/sandbox/sandboxhealth.cpp" line="32"/>
        <source>Docker is not installed, so the model cannot run Python. Install it, then restart Sandpiper.</source>
        <translation>未安装 Docker，因此模型无法运行 Python。请安装 Docker，然后重新启动 Sandpiper。</translation>
    </message>
    <message>
        <location filename="../src/core/sandbox/sandboxhealth.cpp" line="44"/>
        <source>You may not use Docker yet, so the model cannot run Python. Join the docker group, then log out and back in.</source>
        <translation>你尚无权限使用 Docker，因此模型无法运行 Python。请加入 docker 用户组，然后注销并重新登录。</translation>
    </message>
    <message>
        <location filename="../src/core/sandbox/sandboxhealth.cpp" line="50"/>
        <source>Docker is not running, so the model cannot run Python. Start it:</source>
        <translation>Docker 未在运行，因此模型无法运行 Python。请启动 Docker：</translation>
    </message>
    <message>
        <location filename="../src/core/sandbox/sandboxhealth.cpp" line="59"/>
        <source>The sandbox image %1 is missing, so the model cannot run Python yet. Build it:</source>
        <translation>缺少沙箱镜像 %1，因此模型暂时无法运行 Python。请构建该镜像：</translation>
    </message>
</context>
<context>
    <name>Sandpiper</name>
    <message>
        <location filename="../src/core/llm/providerpresets.cpp" line="52"/>
        <source>The base URL is empty.</source>
        <translation>基础 URL 为空。</translation>
    </message>
    <message>
        <location filename="../src/core/llm/providerpresets.cpp" line="74"/>
        <source>&quot;%1&quot; is not a valid http or https URL.</source>
        <translation>“%1”不是有效的 http 或 https URL。</translation>
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
    <name>Sandpiper::AgentLoop</name>
    <message>
        <location filename="../src/core/agent/agentloop.cpp" line="49"/>
        <source>%1 Trying again in %2 s (%3 of %4).</source>
        <translation>%1 将在 %2 秒后重试（第 %3 次，共 %4 次）。</translation>
    </message>
    <message>
        <location filename="../src/core/agent/agentloop.cpp" line="108"/>
        <source>This conversation could not be saved: %1</source>
        <translation>无法保存此对话：%1</translation>
    </message>
    <message>
        <location filename="../src/core/agent/agentloop.cpp" line="180"/>
        <source>Wait for the current answer to finish, or stop it, before sending.</source>
        <translation>请等待当前回答完成或将其停止，然后再发送。</translation>
    </message>
    <message>
        <location filename="../src/core/agent/agentloop.cpp" line="276"/>
        <source>Wait for the current answer to finish before running code.</source>
        <translation>请等待当前回答完成后再运行代码。</translation>
    </message>
    <message>
        <location filename="../src/core/agent/agentloop.cpp" line="277"/>
        <source>Python is not available: the sandbox is switched off.</source>
        <translation>Python 不可用：沙箱已关闭。</translation>
    </message>
    <message>
        <location filename="../src/core/agent/agentloop.cpp" line="421"/>
        <source>Stopped: the model reached the limit of %1 tool rounds for one message. Send another message to let it continue.</source>
        <translation>已停止：模型已达到单条消息 %1 轮工具调用的上限。再发送一条消息即可让它继续。</translation>
    </message>
</context>
<context>
    <name>Sandpiper::ChartWidget</name>
    <message>
        <location filename="../src/app/charts/chartwidget.cpp" line="93"/>
        <source>%1 (%2)</source>
        <comment>axis title and unit</comment>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <location filename="../src/app/charts/chartwidget.cpp" line="100"/>
        <source>Line chart</source>
        <translation>折线图</translation>
    </message>
    <message>
        <location filename="../src/app/charts/chartwidget.cpp" line="102"/>
        <source>Bar chart</source>
        <translation>柱形图</translation>
    </message>
    <message>
        <location filename="../src/app/charts/chartwidget.cpp" line="104"/>
        <source>Horizontal bar chart</source>
        <translation>条形图</translation>
    </message>
    <message>
        <location filename="../src/app/charts/chartwidget.cpp" line="106"/>
        <source>Stacked bar chart</source>
        <translation>堆积柱形图</translation>
    </message>
    <message>
        <location filename="../src/app/charts/chartwidget.cpp" line="108"/>
        <source>Scatter plot</source>
        <translation>散点图</translation>
    </message>
    <message>
        <location filename="../src/app/charts/chartwidget.cpp" line="110"/>
        <source>Area chart</source>
        <translation>面积图</translation>
    </message>
    <message>
        <location filename="../src/app/charts/chartwidget.cpp" line="112"/>
        <source>Pie chart</source>
        <translation>饼图</translation>
    </message>
    <message>
        <location filename="../src/app/charts/chartwidget.cpp" line="114"/>
        <source>Donut chart</source>
        <translation>圆环图</translation>
    </message>
    <message>
        <location filename="../src/app/charts/chartwidget.cpp" line="289"/>
        <source>%1 of %2. Plus and minus zoom, 0 resets the zoom, the menu key offers saving and copying.</source>
        <translation>%1，包含 %2。按加号和减号键缩放，按 0 重置缩放，按菜单键可保存和复制。</translation>
    </message>
    <message>
        <location filename="../src/app/charts/chartwidget.cpp" line="310"/>
        <source>Series %1</source>
        <translation>系列 %1</translation>
    </message>
    <message>
        <location filename="../src/app/charts/chartwidget.cpp" line="494"/>
        <source>%1 %2%</source>
        <comment>pie slice label: name, percentage</comment>
        <translation>%1 %2%</translation>
    </message>
    <message>
        <location filename="../src/app/charts/chartwidget.cpp" line="527"/>
        <source>Zoom In</source>
        <translation>放大</translation>
    </message>
    <message>
        <location filename="../src/app/charts/chartwidget.cpp" line="529"/>
        <source>Zoom Out</source>
        <translation>缩小</translation>
    </message>
    <message>
        <location filename="../src/app/charts/chartwidget.cpp" line="531"/>
        <source>Reset Zoom</source>
        <translation>重置缩放</translation>
    </message>
    <message>
        <location filename="../src/app/charts/chartwidget.cpp" line="532"/>
        <source>Copy Image</source>
        <translation>复制图像</translation>
    </message>
    <message>
        <location filename="../src/app/charts/chartwidget.cpp" line="534"/>
        <source>Copy Data as CSV</source>
        <translation>复制数据为 CSV</translation>
    </message>
    <message>
        <location filename="../src/app/charts/chartwidget.cpp" line="535"/>
        <source>Save as PNG…</source>
        <translation>另存为 PNG…</translation>
    </message>
    <message>
        <location filename="../src/app/charts/chartwidget.cpp" line="537"/>
        <source>Save as SVG…</source>
        <translation>另存为 SVG…</translation>
    </message>
    <message>
        <location filename="../src/app/charts/chartwidget.cpp" line="654"/>
        <source>%1
%2 (%3%)</source>
        <comment>pie slice tooltip: name, value, percentage</comment>
        <translation>%1
%2（%3%）</translation>
    </message>
    <message>
        <location filename="../src/app/charts/chartwidget.cpp" line="663"/>
        <source>%1, %2</source>
        <comment>scatter point tooltip: x, y</comment>
        <translation>%1, %2</translation>
    </message>
    <message>
        <location filename="../src/app/charts/chartwidget.cpp" line="664"/>
        <source>%1: %2</source>
        <comment>tooltip: x or category, value</comment>
        <translation>%1：%2</translation>
    </message>
    <message>
        <location filename="../src/app/charts/chartwidget.cpp" line="754"/>
        <source>Show Slices</source>
        <translation>显示扇区</translation>
    </message>
    <message>
        <location filename="../src/app/charts/chartwidget.cpp" line="754"/>
        <source>Show Series</source>
        <translation>显示系列</translation>
    </message>
    <message>
        <location filename="../src/app/charts/chartwidget.cpp" line="915"/>
        <source>chart</source>
        <translation>图表</translation>
    </message>
    <message>
        <location filename="../src/app/charts/chartwidget.cpp" line="921"/>
        <source>Save Chart as SVG</source>
        <translation>将图表保存为 SVG</translation>
    </message>
    <message>
        <location filename="../src/app/charts/chartwidget.cpp" line="921"/>
        <source>Save Chart as PNG</source>
        <translation>将图表保存为 PNG</translation>
    </message>
    <message>
        <location filename="../src/app/charts/chartwidget.cpp" line="922"/>
        <source>SVG images (*.svg)</source>
        <translation>SVG 图像 (*.svg)</translation>
    </message>
    <message>
        <location filename="../src/app/charts/chartwidget.cpp" line="922"/>
        <source>PNG images (*.png)</source>
        <translation>PNG 图像 (*.png)</translation>
    </message>
    <message>
        <location filename="../src/app/charts/chartwidget.cpp" line="926"/>
        <source>Could Not Save the Chart</source>
        <translation>无法保存图表</translation>
    </message>
    <message>
        <location filename="../src/app/charts/chartwidget.cpp" line="927"/>
        <source>The chart could not be saved to %1. Check that the folder exists and is writable.</source>
        <translation>无法将图表保存到 %1。请检查该文件夹是否存在且可写入。</translation>
    </message>
</context>
<context>
    <name>Sandpiper::ChatClient</name>
    <message>
        <location filename="../src/core/llm/chatclient.cpp" line="140"/>
        <source>Could not connect to %1: the connection was refused. Is the server running?</source>
        <translation>无法连接到 %1：连接被拒绝。服务器是否正在运行？</translation>
    </message>
    <message>
        <location filename="../src/core/llm/chatclient.cpp" line="142"/>
        <source>The host %1 was not found. Check the base URL and your network.</source>
        <translation>找不到主机 %1。请检查基础 URL 和网络连接。</translation>
    </message>
    <message>
        <location filename="../src/core/llm/chatclient.cpp" line="144"/>
        <source>The secure connection to %1 failed: %2</source>
        <translation>与 %1 的安全连接失败：%2</translation>
    </message>
    <message>
        <location filename="../src/core/llm/chatclient.cpp" line="146"/>
        <source>Network error talking to %1: %2</source>
        <translation>与 %1 通信时出现网络错误：%2</translation>
    </message>
    <message>
        <location filename="../src/core/llm/chatclient.cpp" line="162"/>
        <source>The conversation does not fit the model&apos;s context window (HTTP %1): %2</source>
        <translation>对话超出了模型的上下文窗口（HTTP %1）：%2</translation>
    </message>
    <message>
        <location filename="../src/core/llm/chatclient.cpp" line="166"/>
        <source>The provider refused the request (HTTP %1): %2 Check the API key in Settings.</source>
        <translation>服务商拒绝了请求（HTTP %1）：%2 请在“设置”中检查 API 密钥。</translation>
    </message>
    <message>
        <location filename="../src/core/llm/chatclient.cpp" line="169"/>
        <source>The model &quot;%1&quot; or the endpoint was not found (HTTP 404): %2</source>
        <translation>找不到模型“%1”或端点（HTTP 404）：%2</translation>
    </message>
    <message>
        <location filename="../src/core/llm/chatclient.cpp" line="172"/>
        <source>The provider is rate limiting requests (HTTP 429): %1</source>
        <translation>服务商正在限制请求频率（HTTP 429）：%1</translation>
    </message>
    <message>
        <location filename="../src/core/llm/chatclient.cpp" line="175"/>
        <source>The provider had a server error (HTTP %1): %2</source>
        <translation>服务商出现服务器错误（HTTP %1）：%2</translation>
    </message>
    <message>
        <location filename="../src/core/llm/chatclient.cpp" line="178"/>
        <source>The provider rejected the request (HTTP %1): %2</source>
        <translation>服务商拒绝了请求（HTTP %1）：%2</translation>
    </message>
    <message>
        <location filename="../src/core/llm/chatclient.cpp" line="225"/>
        <source>Available models: %1.</source>
        <translation>可用模型：%1。</translation>
    </message>
    <message>
        <location filename="../src/core/llm/chatclient.cpp" line="239"/>
        <location filename="../src/core/llm/chatclient.cpp" line="333"/>
        <location filename="../src/core/llm/contextbudget.cpp" line="56"/>
        <source>Cancelled.</source>
        <translation>已取消。</translation>
    </message>
    <message>
        <location filename="../src/core/llm/chatclient.cpp" line="336"/>
        <source>The server did not answer within %1 s.</source>
        <translation>服务器未在 %1 秒内响应。</translation>
    </message>
    <message>
        <location filename="../src/core/llm/chatclient.cpp" line="341"/>
        <source>The answer stopped arriving: nothing came for %1 s.</source>
        <translation>回答中断：已有 %1 秒未收到任何内容。</translation>
    </message>
    <message>
        <location filename="../src/core/llm/chatclient.cpp" line="356"/>
        <source>The server&apos;s answer is not an OpenAI-compatible chat completion: %1</source>
        <translation>服务器的响应不是与 OpenAI 兼容的聊天补全结果：%1</translation>
    </message>
    <message>
        <location filename="../src/core/llm/chatclient.cpp" line="370"/>
        <source>the stream ended before the answer was finished</source>
        <translation>回答尚未完成，数据流就已结束</translation>
    </message>
    <message>
        <location filename="../src/core/llm/chatclient.cpp" line="372"/>
        <source>The connection broke while the answer was streaming: %1</source>
        <translation>流式传输回答时连接中断：%1</translation>
    </message>
    <message>
        <location filename="../src/core/llm/chatclient.cpp" line="377"/>
        <source>The provider reported an error: %1</source>
        <translation>服务商报告了错误：%1</translation>
    </message>
    <message>
        <location filename="../src/core/llm/chatclient.cpp" line="430"/>
        <source>The server&apos;s model list is not in the OpenAI format (no &quot;data&quot; array).</source>
        <translation>服务器返回的模型列表不是 OpenAI 格式（缺少“data”数组）。</translation>
    </message>
</context>
<context>
    <name>Sandpiper::ChatView</name>
    <message>
        <location filename="../src/app/chat/chatview.cpp" line="33"/>
        <location filename="../src/app/chat/chatview.cpp" line="44"/>
        <source>Show earlier messages</source>
        <translation>显示更早的消息</translation>
    </message>
    <message>
        <location filename="../src/app/chat/chatview.cpp" line="39"/>
        <source>Conversation</source>
        <translation>对话</translation>
    </message>
    <message>
        <location filename="../src/app/chat/chatview.cpp" line="191"/>
        <source>Error</source>
        <translation>错误</translation>
    </message>
    <message>
        <location filename="../src/app/chat/chatview.cpp" line="191"/>
        <source>Notice</source>
        <translation>提示</translation>
    </message>
</context>
<context>
    <name>Sandpiper::CodeInspector</name>
    <message>
        <location filename="../src/app/codeinspector.cpp" line="55"/>
        <location filename="../src/app/codeinspector.cpp" line="137"/>
        <location filename="../src/app/codeinspector.cpp" line="175"/>
        <source>Edit and run</source>
        <translation>编辑并运行</translation>
    </message>
    <message>
        <location filename="../src/app/codeinspector.cpp" line="56"/>
        <source>Restart kernel</source>
        <translation>重启内核</translation>
    </message>
    <message>
        <location filename="../src/app/codeinspector.cpp" line="58"/>
        <source>Code inspector</source>
        <translation>代码检查器</translation>
    </message>
    <message>
        <location filename="../src/app/codeinspector.cpp" line="60"/>
        <source>Executions</source>
        <translation>执行记录</translation>
    </message>
    <message>
        <location filename="../src/app/codeinspector.cpp" line="64"/>
        <source>Executed code</source>
        <translation>已执行的代码</translation>
    </message>
    <message>
        <location filename="../src/app/codeinspector.cpp" line="65"/>
        <source>Standard output</source>
        <translation>标准输出</translation>
    </message>
    <message>
        <location filename="../src/app/codeinspector.cpp" line="66"/>
        <source>Standard error</source>
        <translation>标准错误</translation>
    </message>
    <message>
        <location filename="../src/app/codeinspector.cpp" line="70"/>
        <source>Displayed value</source>
        <translation>显示的值</translation>
    </message>
    <message>
        <location filename="../src/app/codeinspector.cpp" line="73"/>
        <source>Execution status</source>
        <translation>执行状态</translation>
    </message>
    <message>
        <location filename="../src/app/codeinspector.cpp" line="78"/>
        <source>Edit the code and run it in the same sandbox</source>
        <translation>编辑代码并在同一沙箱中运行</translation>
    </message>
    <message>
        <location filename="../src/app/codeinspector.cpp" line="79"/>
        <source>Restart the Python kernel</source>
        <translation>重启 Python 内核</translation>
    </message>
    <message>
        <location filename="../src/app/codeinspector.cpp" line="86"/>
        <source>Code</source>
        <translation>代码</translation>
    </message>
    <message>
        <location filename="../src/app/codeinspector.cpp" line="89"/>
        <source>Output</source>
        <translation>输出</translation>
    </message>
    <message>
        <location filename="../src/app/codeinspector.cpp" line="91"/>
        <source>Errors and warnings</source>
        <translation>错误和警告</translation>
    </message>
    <message>
        <location filename="../src/app/codeinspector.cpp" line="93"/>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <location filename="../src/app/codeinspector.cpp" line="99"/>
        <source>Figures</source>
        <translation>图像</translation>
    </message>
    <message>
        <location filename="../src/app/codeinspector.cpp" line="132"/>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <location filename="../src/app/codeinspector.cpp" line="184"/>
        <source>No code has run in this conversation yet.</source>
        <translation>此对话中尚未运行任何代码。</translation>
    </message>
    <message>
        <location filename="../src/app/codeinspector.cpp" line="196"/>
        <source>Running…</source>
        <translation>正在运行…</translation>
    </message>
    <message>
        <location filename="../src/app/codeinspector.cpp" line="205"/>
        <source>%1 in %2 s</source>
        <translation>%1，用时 %2 秒</translation>
    </message>
    <message>
        <location filename="../src/app/codeinspector.cpp" line="210"/>
        <source>(run by you)</source>
        <translation>（由你运行）</translation>
    </message>
    <message>
        <location filename="../src/app/codeinspector.cpp" line="221"/>
        <source>Files: %1</source>
        <translation>文件：%1</translation>
    </message>
</context>
<context>
    <name>Sandpiper::Composer</name>
    <message>
        <location filename="../src/app/composer.cpp" line="19"/>
        <source>Send</source>
        <translation>发送</translation>
    </message>
    <message>
        <location filename="../src/app/composer.cpp" line="20"/>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <location filename="../src/app/composer.cpp" line="21"/>
        <source>Attach…</source>
        <translation>添加附件…</translation>
    </message>
    <message>
        <location filename="../src/app/composer.cpp" line="23"/>
        <source>Network in sandbox</source>
        <translation>沙箱联网</translation>
    </message>
    <message>
        <location filename="../src/app/composer.cpp" line="27"/>
        <source>Ask anything. Enter sends, Shift+Enter starts a new line.</source>
        <translation>输入你的问题。按 Enter 发送，按 Shift+Enter 换行。</translation>
    </message>
    <message>
        <location filename="../src/app/composer.cpp" line="28"/>
        <source>Message</source>
        <translation>消息</translation>
    </message>
    <message>
        <location filename="../src/app/composer.cpp" line="33"/>
        <source>Send message</source>
        <translation>发送消息</translation>
    </message>
    <message>
        <location filename="../src/app/composer.cpp" line="34"/>
        <source>Stop the answer</source>
        <translation>停止回答</translation>
    </message>
    <message>
        <location filename="../src/app/composer.cpp" line="35"/>
        <source>Stop (Esc)</source>
        <translation>停止 (Esc)</translation>
    </message>
    <message>
        <location filename="../src/app/composer.cpp" line="37"/>
        <source>Attach files</source>
        <translation>添加附件</translation>
    </message>
    <message>
        <location filename="../src/app/composer.cpp" line="38"/>
        <source>Files are copied to the conversation folder, /mnt/data in the sandbox.</source>
        <translation>文件会被复制到对话文件夹，即沙箱中的 /mnt/data。</translation>
    </message>
    <message>
        <location filename="../src/app/composer.cpp" line="39"/>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <location filename="../src/app/composer.cpp" line="44"/>
        <source>Allow network access in this conversation&apos;s sandbox</source>
        <translation>允许此对话的沙箱访问网络</translation>
    </message>
    <message>
        <location filename="../src/app/composer.cpp" line="115"/>
        <source>Attached: %1</source>
        <translation>已添加附件：%1</translation>
    </message>
</context>
<context>
    <name>Sandpiper::ContextBudget</name>
    <message>
        <location filename="../src/core/llm/contextbudget.cpp" line="170"/>
        <source>Ollama does this when its context window is smaller than the request: raise it with OLLAMA_CONTEXT_LENGTH (for example 32768) where the server starts, or with num_ctx in the model&apos;s Modelfile.</source>
        <translation>当 Ollama 的上下文窗口小于请求时就会这样做：请在启动服务器时用 OLLAMA_CONTEXT_LENGTH（例如 32768）调大窗口，或在模型的 Modelfile 中设置 num_ctx。</translation>
    </message>
    <message>
        <location filename="../src/core/llm/contextbudget.cpp" line="175"/>
        <source>LM Studio does this when the model is loaded with a smaller context length than the request: load it with a larger one.</source>
        <translation>当 LM Studio 加载模型时使用的上下文长度小于请求时就会这样做：请用更大的上下文长度加载该模型。</translation>
    </message>
    <message>
        <location filename="../src/core/llm/contextbudget.cpp" line="179"/>
        <source>Raise the server&apos;s context size for this model.</source>
        <translation>请为此模型调大服务器的上下文大小。</translation>
    </message>
    <message>
        <location filename="../src/core/llm/contextbudget.cpp" line="182"/>
        <source>The server cut this conversation to %1 tokens without saying so: the model saw only part of a request of about %2 tokens. %3 Or set this model&apos;s context window in Settings. Until then Sandpiper keeps requests within %4 tokens itself and says what it leaves out.</source>
        <translation>服务器在没有提示的情况下把这段对话截断为 %1 个词元：模型只看到了约 %2 个词元的请求中的一部分。%3 也可以在“设置”中设置此模型的上下文窗口。在此之前，Sandpiper 会自行把请求控制在 %4 个词元以内，并说明省略了哪些内容。</translation>
    </message>
    <message>
        <location filename="../src/core/llm/contextbudget.cpp" line="243"/>
        <source>Sandpiper left out of the request what it could; what remains (the system prompt, the tool declarations and the last message) is still too long. Give the model a larger context window on the server, or send a shorter message.</source>
        <translation>Sandpiper 已从请求中省略了所有可以省略的内容；剩下的部分（系统提示词、工具声明和最后一条消息）仍然太长。请在服务器上为模型设置更大的上下文窗口，或发送更短的消息。</translation>
    </message>
</context>
<context>
    <name>Sandpiper::ConversationListModel</name>
    <message>
        <location filename="../src/app/conversationlistmodel.cpp" line="13"/>
        <location filename="../src/app/conversationlistmodel.cpp" line="28"/>
        <source>New conversation</source>
        <translation>新对话</translation>
    </message>
</context>
<context>
    <name>Sandpiper::ExecutionListModel</name>
    <message>
        <location filename="../src/app/executionlistmodel.cpp" line="50"/>
        <source>ok</source>
        <translation>成功</translation>
    </message>
    <message>
        <location filename="../src/app/executionlistmodel.cpp" line="52"/>
        <source>error</source>
        <translation>出错</translation>
    </message>
    <message>
        <location filename="../src/app/executionlistmodel.cpp" line="54"/>
        <source>interrupted</source>
        <translation>已中断</translation>
    </message>
    <message>
        <location filename="../src/app/executionlistmodel.cpp" line="56"/>
        <source>crashed</source>
        <translation>已崩溃</translation>
    </message>
    <message>
        <location filename="../src/app/executionlistmodel.cpp" line="58"/>
        <source>unavailable</source>
        <translation>不可用</translation>
    </message>
    <message>
        <location filename="../src/app/executionlistmodel.cpp" line="85"/>
        <source>you</source>
        <translation>你</translation>
    </message>
    <message>
        <location filename="../src/app/executionlistmodel.cpp" line="85"/>
        <source>model</source>
        <translation>模型</translation>
    </message>
    <message>
        <location filename="../src/app/executionlistmodel.cpp" line="87"/>
        <source>running… · %1
%2</source>
        <translation>正在运行… · %1
%2</translation>
    </message>
    <message>
        <location filename="../src/app/executionlistmodel.cpp" line="89"/>
        <source>%1 · %2 s · %3
%4</source>
        <translation>%1 · %2 秒 · %3
%4</translation>
    </message>
</context>
<context>
    <name>Sandpiper::FigureView</name>
    <message>
        <location filename="../src/app/chat/figureview.cpp" line="30"/>
        <source>The figure %1 could not be read.</source>
        <translation>无法读取图像 %1。</translation>
    </message>
    <message>
        <location filename="../src/app/chat/figureview.cpp" line="36"/>
        <source>Figure %1</source>
        <translation>图像 %1</translation>
    </message>
    <message>
        <location filename="../src/app/chat/figureview.cpp" line="37"/>
        <source>Click to open at full size; right-click to save or copy.</source>
        <translation>单击以原始尺寸打开；右击可保存或复制。</translation>
    </message>
    <message>
        <location filename="../src/app/chat/figureview.cpp" line="58"/>
        <source>Open at full size</source>
        <translation>以原始尺寸打开</translation>
    </message>
    <message>
        <location filename="../src/app/chat/figureview.cpp" line="59"/>
        <source>Save image as…</source>
        <translation>图像另存为…</translation>
    </message>
    <message>
        <location filename="../src/app/chat/figureview.cpp" line="60"/>
        <source>Copy image</source>
        <translation>复制图像</translation>
    </message>
    <message>
        <location filename="../src/app/chat/figureview.cpp" line="71"/>
        <source>Figure at full size</source>
        <translation>原始尺寸图像</translation>
    </message>
    <message>
        <location filename="../src/app/chat/figureview.cpp" line="83"/>
        <location filename="../src/app/chat/figureview.cpp" line="88"/>
        <source>Save figure</source>
        <translation>保存图像</translation>
    </message>
    <message>
        <location filename="../src/app/chat/figureview.cpp" line="83"/>
        <source>PNG images (*.png)</source>
        <translation>PNG 图像 (*.png)</translation>
    </message>
    <message>
        <location filename="../src/app/chat/figureview.cpp" line="88"/>
        <source>The figure could not be saved to %1.</source>
        <translation>无法将图像保存到 %1。</translation>
    </message>
</context>
<context>
    <name>Sandpiper::ImageManager</name>
    <message>
        <location filename="../src/core/sandbox/imagemanager.cpp" line="28"/>
        <source>There is no Dockerfile in %1.</source>
        <translation>%1 中没有 Dockerfile。</translation>
    </message>
    <message>
        <location filename="../src/core/sandbox/imagemanager.cpp" line="50"/>
        <source>The Docker client could not be started: is Docker installed?</source>
        <translation>无法启动 Docker 客户端：是否已安装 Docker？</translation>
    </message>
    <message>
        <location filename="../src/core/sandbox/imagemanager.cpp" line="59"/>
        <source>Building the image took longer than an hour and was stopped.</source>
        <translation>构建镜像耗时超过一小时，已被停止。</translation>
    </message>
    <message>
        <location filename="../src/core/sandbox/imagemanager.cpp" line="63"/>
        <source>Building the image failed: %1</source>
        <translation>构建镜像失败：%1</translation>
    </message>
</context>
<context>
    <name>Sandpiper::MainWindow</name>
    <message>
        <location filename="../src/app/mainwindow.cpp" line="75"/>
        <source>Sandpiper</source>
        <translation>Sandpiper</translation>
    </message>
    <message>
        <location filename="../src/app/mainwindow.cpp" line="83"/>
        <source>Conversations</source>
        <translation>对话</translation>
    </message>
    <message>
        <location filename="../src/app/mainwindow.cpp" line="60"/>
        <source>New chat</source>
        <translation>新建对话</translation>
    </message>
    <message>
        <location filename="../src/app/mainwindow.cpp" line="61"/>
        <source>Rename</source>
        <translation>重命名</translation>
    </message>
    <message>
        <location filename="../src/app/mainwindow.cpp" line="62"/>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <location filename="../src/app/mainwindow.cpp" line="69"/>
        <location filename="../src/app/mainwindow.cpp" line="126"/>
        <source>Code inspector</source>
        <translation>代码检查器</translation>
    </message>
    <message>
        <location filename="../src/app/mainwindow.cpp" line="79"/>
        <source>Search conversations (Ctrl+F)</source>
        <translation>搜索对话 (Ctrl+F)</translation>
    </message>
    <message>
        <location filename="../src/app/mainwindow.cpp" line="80"/>
        <source>Search conversations</source>
        <translation>搜索对话</translation>
    </message>
    <message>
        <location filename="../src/app/mainwindow.cpp" line="86"/>
        <location filename="../src/app/mainwindow.cpp" line="329"/>
        <location filename="../src/app/mainwindow.cpp" line="338"/>
        <source>New conversation</source>
        <translation>新对话</translation>
    </message>
    <message>
        <location filename="../src/app/mainwindow.cpp" line="87"/>
        <location filename="../src/app/mainwindow.cpp" line="450"/>
        <location filename="../src/app/mainwindow.cpp" line="455"/>
        <source>Rename conversation</source>
        <translation>重命名对话</translation>
    </message>
    <message>
        <location filename="../src/app/mainwindow.cpp" line="88"/>
        <location filename="../src/app/mainwindow.cpp" line="510"/>
        <location filename="../src/app/mainwindow.cpp" line="517"/>
        <source>Delete conversation</source>
        <translation>删除对话</translation>
    </message>
    <message>
        <location filename="../src/app/mainwindow.cpp" line="103"/>
        <source>Sandbox status</source>
        <translation>沙箱状态</translation>
    </message>
    <message>
        <location filename="../src/app/mainwindow.cpp" line="130"/>
        <source>Provider and model</source>
        <translation>服务商和模型</translation>
    </message>
    <message>
        <location filename="../src/app/mainwindow.cpp" line="131"/>
        <source>Docker state</source>
        <translation>Docker 状态</translation>
    </message>
    <message>
        <location filename="../src/app/mainwindow.cpp" line="132"/>
        <source>Tokens used in this conversation</source>
        <translation>此对话已使用的 token 数</translation>
    </message>
    <message>
        <location filename="../src/app/mainwindow.cpp" line="226"/>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <location filename="../src/app/mainwindow.cpp" line="227"/>
        <source>&amp;New chat</source>
        <translation>新建对话(&amp;N)</translation>
    </message>
    <message>
        <location filename="../src/app/mainwindow.cpp" line="230"/>
        <source>Export as &amp;Markdown…</source>
        <translation>导出为 Markdown(&amp;M)…</translation>
    </message>
    <message>
        <location filename="../src/app/mainwindow.cpp" line="231"/>
        <source>Export as &amp;JSON…</source>
        <translation>导出为 JSON(&amp;J)…</translation>
    </message>
    <message>
        <location filename="../src/app/mainwindow.cpp" line="232"/>
        <source>&amp;Import conversation…</source>
        <translation>导入对话(&amp;I)…</translation>
    </message>
    <message>
        <location filename="../src/app/mainwindow.cpp" line="234"/>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <location filename="../src/app/mainwindow.cpp" line="237"/>
        <source>&amp;Edit</source>
        <translation>编辑(&amp;E)</translation>
    </message>
    <message>
        <location filename="../src/app/mainwindow.cpp" line="238"/>
        <source>&amp;Search conversations</source>
        <translation>搜索对话(&amp;S)</translation>
    </message>
    <message>
        <location filename="../src/app/mainwindow.cpp" line="243"/>
        <source>&amp;Copy last answer</source>
        <translation>复制最后一条回答(&amp;C)</translation>
    </message>
    <message>
        <location filename="../src/app/mainwindow.cpp" line="246"/>
        <source>Focus the &amp;message box</source>
        <translation>聚焦到消息框(&amp;m)</translation>
    </message>
    <message>
        <location filename="../src/app/mainwindow.cpp" line="248"/>
        <source>S&amp;top the answer</source>
        <translation>停止回答(&amp;t)</translation>
    </message>
    <message>
        <location filename="../src/app/mainwindow.cpp" line="251"/>
        <source>Se&amp;ttings…</source>
        <translation>设置(&amp;t)…</translation>
    </message>
    <message>
        <location filename="../src/app/mainwindow.cpp" line="259"/>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <location filename="../src/app/mainwindow.cpp" line="261"/>
        <source>Code &amp;inspector</source>
        <translation>代码检查器(&amp;i)</translation>
    </message>
    <message>
        <location filename="../src/app/mainwindow.cpp" line="265"/>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <location filename="../src/app/mainwindow.cpp" line="266"/>
        <source>&amp;About Sandpiper</source>
        <translation>关于 Sandpiper(&amp;A)</translation>
    </message>
    <message>
        <location filename="../src/app/mainwindow.cpp" line="308"/>
        <source>Open conversation</source>
        <translation>打开对话</translation>
    </message>
    <message>
        <location filename="../src/app/mainwindow.cpp" line="328"/>
        <source>%1 — Sandpiper</source>
        <translation>%1 — Sandpiper</translation>
    </message>
    <message>
        <location filename="../src/app/mainwindow.cpp" line="395"/>
        <source>[Attached file: /mnt/data/%1]</source>
        <translation>[附加文件：/mnt/data/%1]</translation>
    </message>
    <message>
        <location filename="../src/app/mainwindow.cpp" line="450"/>
        <source>Title:</source>
        <translation>标题：</translation>
    </message>
    <message>
        <location filename="../src/app/mainwindow.cpp" line="465"/>
        <location filename="../src/app/mainwindow.cpp" line="485"/>
        <source>Export</source>
        <translation>导出</translation>
    </message>
    <message>
        <location filename="../src/app/mainwindow.cpp" line="468"/>
        <source>conversation</source>
        <translation>对话</translation>
    </message>
    <message>
        <location filename="../src/app/mainwindow.cpp" line="471"/>
        <source>Export conversation</source>
        <translation>导出对话</translation>
    </message>
    <message>
        <location filename="../src/app/mainwindow.cpp" line="472"/>
        <source>Markdown (*.md)</source>
        <translation>Markdown (*.md)</translation>
    </message>
    <message>
        <location filename="../src/app/mainwindow.cpp" line="472"/>
        <location filename="../src/app/mainwindow.cpp" line="492"/>
        <source>JSON (*.json)</source>
        <translation>JSON (*.json)</translation>
    </message>
    <message>
        <location filename="../src/app/mainwindow.cpp" line="487"/>
        <source>Exported to %1</source>
        <translation>已导出到 %1</translation>
    </message>
    <message>
        <location filename="../src/app/mainwindow.cpp" line="492"/>
        <location filename="../src/app/mainwindow.cpp" line="497"/>
        <source>Import conversation</source>
        <translation>导入对话</translation>
    </message>
    <message>
        <location filename="../src/app/mainwindow.cpp" line="511"/>
        <source>Delete this conversation, its files and its figures? This cannot be undone.</source>
        <translation>要删除此对话及其文件和图像吗？此操作无法撤销。</translation>
    </message>
    <message>
        <location filename="../src/app/mainwindow.cpp" line="530"/>
        <source>Attach files</source>
        <translation>添加附件</translation>
    </message>
    <message>
        <location filename="../src/app/mainwindow.cpp" line="543"/>
        <source>Attach file</source>
        <translation>添加附件</translation>
    </message>
    <message>
        <location filename="../src/app/mainwindow.cpp" line="544"/>
        <source>%1 could not be attached: %2</source>
        <translation>无法添加附件 %1：%2</translation>
    </message>
    <message>
        <location filename="../src/app/mainwindow.cpp" line="558"/>
        <source>The last answer was copied.</source>
        <translation>已复制最后一条回答。</translation>
    </message>
    <message>
        <location filename="../src/app/mainwindow.cpp" line="566"/>
        <source>Edit and resend</source>
        <translation>编辑并重新发送</translation>
    </message>
    <message>
        <location filename="../src/app/mainwindow.cpp" line="567"/>
        <source>Resending drops the messages after this one. Continue?</source>
        <translation>重新发送将丢弃此消息之后的所有消息。是否继续？</translation>
    </message>
    <message>
        <location filename="../src/app/mainwindow.cpp" line="578"/>
        <source>Resend</source>
        <translation>重新发送</translation>
    </message>
    <message>
        <location filename="../src/app/mainwindow.cpp" line="611"/>
        <source>No API key for %1 was found.</source>
        <translation>未找到 %1 的 API 密钥。</translation>
    </message>
    <message>
        <location filename="../src/app/mainwindow.cpp" line="633"/>
        <source>%1 does not answer at %2.</source>
        <translation>%1 在 %2 没有响应。</translation>
    </message>
    <message>
        <location filename="../src/app/mainwindow.cpp" line="635"/>
        <source>an empty address</source>
        <translation>空地址</translation>
    </message>
    <message>
        <location filename="../src/app/mainwindow.cpp" line="660"/>
        <source>The keychain is not available: the API key is used until you quit and will not be remembered.</source>
        <translation>钥匙串不可用：API 密钥只在本次运行期间使用，退出后不会保存。</translation>
    </message>
    <message>
        <location filename="../src/app/mainwindow.cpp" line="680"/>
        <source>Python: off</source>
        <translation>Python：已关闭</translation>
    </message>
    <message>
        <location filename="../src/app/mainwindow.cpp" line="686"/>
        <source>Docker: checking…</source>
        <translation>Docker：正在检查…</translation>
    </message>
    <message>
        <location filename="../src/app/mainwindow.cpp" line="691"/>
        <source>Docker: ready</source>
        <translation>Docker：就绪</translation>
    </message>
    <message>
        <location filename="../src/app/mainwindow.cpp" line="691"/>
        <source>Docker: unavailable</source>
        <translation>Docker：不可用</translation>
    </message>
    <message>
        <location filename="../src/app/mainwindow.cpp" line="711"/>
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
    <message>
        <location filename="../src/app/mainwindow.cpp" line="712"/>
        <source>%L1 tokens</source>
        <translation>%L1 个 token</translation>
    </message>
</context>
<context>
    <name>Sandpiper::MarkdownView</name>
    <message>
        <location filename="../src/app/chat/markdownview.cpp" line="102"/>
        <source>code</source>
        <translation>代码</translation>
    </message>
    <message>
        <location filename="../src/app/chat/markdownview.cpp" line="104"/>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <location filename="../src/app/chat/markdownview.cpp" line="124"/>
        <source>[the image at %1 could not be loaded]</source>
        <translation>[无法加载位于 %1 的图像]</translation>
    </message>
    <message>
        <location filename="../src/app/chat/markdownview.cpp" line="126"/>
        <source>Load image from</source>
        <translation>加载图像，来源：</translation>
    </message>
    <message>
        <location filename="../src/app/chat/markdownview.cpp" line="129"/>
        <source>[image not found: %1]</source>
        <translation>[找不到图像：%1]</translation>
    </message>
</context>
<context>
    <name>Sandpiper::MessageWidget</name>
    <message>
        <location filename="../src/app/chat/messagewidget.cpp" line="61"/>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <location filename="../src/app/chat/messagewidget.cpp" line="61"/>
        <source>Copy message</source>
        <translation>复制消息</translation>
    </message>
    <message>
        <location filename="../src/app/chat/messagewidget.cpp" line="62"/>
        <source>Edit</source>
        <translation>编辑</translation>
    </message>
    <message>
        <location filename="../src/app/chat/messagewidget.cpp" line="62"/>
        <location filename="../src/app/chat/messagewidget.cpp" line="122"/>
        <source>Edit and resend</source>
        <translation>编辑并重新发送</translation>
    </message>
    <message>
        <location filename="../src/app/chat/messagewidget.cpp" line="63"/>
        <source>Regenerate</source>
        <translation>重新生成</translation>
    </message>
    <message>
        <location filename="../src/app/chat/messagewidget.cpp" line="63"/>
        <source>Regenerate answer</source>
        <translation>重新生成回答</translation>
    </message>
    <message>
        <location filename="../src/app/chat/messagewidget.cpp" line="64"/>
        <source>Retry</source>
        <translation>重试</translation>
    </message>
    <message>
        <location filename="../src/app/chat/messagewidget.cpp" line="64"/>
        <source>Retry after the error</source>
        <translation>出错后重试</translation>
    </message>
    <message>
        <location filename="../src/app/chat/messagewidget.cpp" line="73"/>
        <source>You</source>
        <translation>你</translation>
    </message>
    <message>
        <location filename="../src/app/chat/messagewidget.cpp" line="73"/>
        <source>Assistant</source>
        <translation>助手</translation>
    </message>
    <message>
        <location filename="../src/app/chat/messagewidget.cpp" line="79"/>
        <source>Thinking</source>
        <translation>思考过程</translation>
    </message>
    <message>
        <location filename="../src/app/chat/messagewidget.cpp" line="80"/>
        <source>Show the model&apos;s reasoning</source>
        <translation>显示模型的推理过程</translation>
    </message>
    <message>
        <location filename="../src/app/chat/messagewidget.cpp" line="123"/>
        <source>Later messages of this conversation will be removed.</source>
        <translation>此对话中之后的消息将被删除。</translation>
    </message>
    <message>
        <location filename="../src/app/chat/messagewidget.cpp" line="141"/>
        <source>Your message</source>
        <translation>你的消息</translation>
    </message>
    <message>
        <location filename="../src/app/chat/messagewidget.cpp" line="141"/>
        <source>Answer</source>
        <translation>回答</translation>
    </message>
    <message>
        <location filename="../src/app/chat/messagewidget.cpp" line="241"/>
        <source>writing…</source>
        <translation>正在撰写…</translation>
    </message>
    <message>
        <location filename="../src/app/chat/messagewidget.cpp" line="244"/>
        <source>stopped</source>
        <translation>已停止</translation>
    </message>
    <message>
        <location filename="../src/app/chat/messagewidget.cpp" line="247"/>
        <source>interrupted: Sandpiper stopped while this was written</source>
        <translation>已中断：撰写此内容时 Sandpiper 已停止运行</translation>
    </message>
</context>
<context>
    <name>Sandpiper::SandboxSession</name>
    <message>
        <location filename="../src/core/sandbox/sandboxsession.cpp" line="115"/>
        <source>The code did not stop when interrupted, so its sandbox was replaced: variables and imports from earlier were lost.</source>
        <translation>代码在中断后未能停止，因此已替换其沙箱：之前的变量和导入已丢失。</translation>
    </message>
    <message>
        <location filename="../src/core/sandbox/sandboxsession.cpp" line="121"/>
        <source>The sandbox had stopped after %1 min without use.</source>
        <translation>沙箱因闲置 %1 分钟而已停止。</translation>
    </message>
    <message>
        <location filename="../src/core/sandbox/sandboxsession.cpp" line="261"/>
        <source>The sandbox did not start within %1 s.</source>
        <translation>沙箱未能在 %1 秒内启动。</translation>
    </message>
    <message>
        <location filename="../src/core/sandbox/sandboxsession.cpp" line="328"/>
        <source>The sandbox stopped answering and was replaced.</source>
        <translation>沙箱停止响应，已被替换。</translation>
    </message>
    <message>
        <location filename="../src/core/sandbox/sandboxsession.cpp" line="358"/>
        <source>The kernel was restarted: variables and imports from earlier were lost.</source>
        <translation>内核已重启：之前的变量和导入已丢失。</translation>
    </message>
    <message>
        <location filename="../src/core/sandbox/sandboxsession.cpp" line="380"/>
        <source>The sandbox was restarted with network access: earlier variables and imports were lost.</source>
        <translation>沙箱已以联网模式重启：之前的变量和导入已丢失。</translation>
    </message>
    <message>
        <location filename="../src/core/sandbox/sandboxsession.cpp" line="381"/>
        <source>The sandbox was restarted without network access: earlier variables and imports were lost.</source>
        <translation>沙箱已以断网模式重启：之前的变量和导入已丢失。</translation>
    </message>
    <message>
        <location filename="../src/core/sandbox/sandboxsession.cpp" line="530"/>
        <source>The Docker client (%1) could not be started: is Docker installed?</source>
        <translation>无法启动 Docker 客户端（%1）：是否已安装 Docker？</translation>
    </message>
    <message>
        <location filename="../src/core/sandbox/sandboxsession.cpp" line="532"/>
        <source>The Python kernel was killed (exit code 137), most likely because it ran out of memory (the limit is %1).</source>
        <translation>Python 内核被终止（退出代码 137），很可能是因为内存不足（上限为 %1）。</translation>
    </message>
    <message>
        <location filename="../src/core/sandbox/sandboxsession.cpp" line="536"/>
        <source>The Python kernel crashed with a segmentation fault (exit code 139).</source>
        <translation>Python 内核因段错误而崩溃（退出代码 139）。</translation>
    </message>
    <message>
        <location filename="../src/core/sandbox/sandboxsession.cpp" line="540"/>
        <source>Docker could not start the sandbox: %1</source>
        <translation>Docker 无法启动沙箱：%1</translation>
    </message>
    <message>
        <location filename="../src/core/sandbox/sandboxsession.cpp" line="541"/>
        <source>exit code %1</source>
        <translation>退出代码 %1</translation>
    </message>
    <message>
        <location filename="../src/core/sandbox/sandboxsession.cpp" line="543"/>
        <source>The Python kernel exited unexpectedly (exit code %1).</source>
        <translation>Python 内核意外退出（退出代码 %1）。</translation>
    </message>
    <message>
        <location filename="../src/core/sandbox/sandboxsession.cpp" line="571"/>
        <source>The previous kernel stopped (%1); variables and imports from earlier were lost.</source>
        <translation>之前的内核已停止（%1）；先前的变量和导入已丢失。</translation>
    </message>
</context>
<context>
    <name>Sandpiper::Settings</name>
    <message>
        <location filename="../src/core/settings/settings.cpp" line="63"/>
        <source>The settings file %1 could not be read. Sandpiper uses the defaults and leaves the file as it is; changes last until you quit.</source>
        <translation>无法读取设置文件 %1。Sandpiper 将使用默认设置，并保留该文件不变；所做的更改在退出前有效。</translation>
    </message>
    <message>
        <location filename="../src/core/settings/settings.cpp" line="68"/>
        <source>The settings file %1 was written by a newer version of Sandpiper. This version uses the defaults and leaves the file as it is; changes last until you quit.</source>
        <translation>设置文件 %1 由更新版本的 Sandpiper 写入。此版本将使用默认设置，并保留该文件不变；所做的更改在退出前有效。</translation>
    </message>
</context>
<context>
    <name>Sandpiper::SettingsDialog</name>
    <message>
        <location filename="../src/app/settingsdialog.cpp" line="73"/>
        <source>Changes apply to new conversations; the theme changes at once.</source>
        <translation>更改将应用于新对话；主题会立即更改。</translation>
    </message>
    <message>
        <location filename="../src/app/settingsdialog.cpp" line="75"/>
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <location filename="../src/app/settingsdialog.cpp" line="76"/>
        <location filename="../src/app/settingsdialog.cpp" line="77"/>
        <source>Settings sections</source>
        <translation>设置分区</translation>
    </message>
    <message>
        <location filename="../src/app/settingsdialog.cpp" line="78"/>
        <source>&amp;Providers</source>
        <translation>服务商(&amp;P)</translation>
    </message>
    <message>
        <location filename="../src/app/settingsdialog.cpp" line="79"/>
        <source>&amp;Sandbox</source>
        <translation>沙箱(&amp;S)</translation>
    </message>
    <message>
        <location filename="../src/app/settingsdialog.cpp" line="80"/>
        <source>&amp;Tools</source>
        <translation>工具(&amp;T)</translation>
    </message>
    <message>
        <location filename="../src/app/settingsdialog.cpp" line="81"/>
        <source>&amp;Appearance</source>
        <translation>外观(&amp;A)</translation>
    </message>
    <message>
        <location filename="../src/app/settingsdialog.cpp" line="82"/>
        <source>System p&amp;rompt</source>
        <translation>系统提示词(&amp;r)</translation>
    </message>
    <message>
        <location filename="../src/app/settingsdialog.cpp" line="104"/>
        <source>Provider</source>
        <translation>服务商</translation>
    </message>
    <message>
        <location filename="../src/app/settingsdialog.cpp" line="106"/>
        <source>Base URL</source>
        <translation>基础 URL</translation>
    </message>
    <message>
        <location filename="../src/app/settingsdialog.cpp" line="113"/>
        <source>API key</source>
        <translation>API 密钥</translation>
    </message>
    <message>
        <location filename="../src/app/settingsdialog.cpp" line="114"/>
        <source>Leave empty to keep the current key</source>
        <translation>留空则保留当前密钥</translation>
    </message>
    <message>
        <location filename="../src/app/settingsdialog.cpp" line="120"/>
        <location filename="../src/app/settingsdialog.cpp" line="121"/>
        <source>Default model</source>
        <translation>默认模型</translation>
    </message>
    <message>
        <location filename="../src/app/settingsdialog.cpp" line="123"/>
        <source>Extra headers</source>
        <translation>额外请求头</translation>
    </message>
    <message>
        <location filename="../src/app/settingsdialog.cpp" line="124"/>
        <source>One per line, such as
X-Title: Sandpiper</source>
        <translation>每行一个，例如
X-Title: Sandpiper</translation>
    </message>
    <message>
        <location filename="../src/app/settingsdialog.cpp" line="130"/>
        <source>As the server says</source>
        <translation>以服务器为准</translation>
    </message>
    <message>
        <location filename="../src/app/settingsdialog.cpp" line="131"/>
        <source> tokens</source>
        <translation> 个词元</translation>
    </message>
    <message>
        <location filename="../src/app/settingsdialog.cpp" line="132"/>
        <source>Context window of this model</source>
        <translation>此模型的上下文窗口</translation>
    </message>
    <message>
        <location filename="../src/app/settingsdialog.cpp" line="133"/>
        <source>How many tokens this model can take in. Sandpiper asks the server; set it here when the server does not say, or says more than it uses (Ollama without num_ctx). Longer conversations are shortened to fit, never changed.</source>
        <translation>此模型一次能接收多少个词元。Sandpiper 会询问服务器；如果服务器不提供，或提供的数值大于实际使用的数值（未设置 num_ctx 的 Ollama），请在此设置。较长的对话会被缩短后发送，但对话本身不会被修改。</translation>
    </message>
    <message>
        <location filename="../src/app/settingsdialog.cpp" line="137"/>
        <source>Run tool calls written as text</source>
        <translation>运行以文本形式写出的工具调用</translation>
    </message>
    <message>
        <location filename="../src/app/settingsdialog.cpp" line="138"/>
        <source>Local servers often pass a model&apos;s tool calls on as text (&lt;tool_call&gt;, [TOOL_CALLS], …). Sandpiper recognises them and runs them like any other call.</source>
        <translation>本地服务器常常把模型的工具调用当作文本传回（&lt;tool_call&gt;、[TOOL_CALLS] 等）。Sandpiper 会识别它们，并像其他调用一样运行。</translation>
    </message>
    <message>
        <location filename="../src/app/settingsdialog.cpp" line="136"/>
        <source>Run tool &amp;calls the model writes as text</source>
        <translation>运行模型以文本形式写出的工具调用(&amp;c)</translation>
    </message>
    <message>
        <location filename="../src/app/settingsdialog.cpp" line="140"/>
        <source>Send the model&apos;s reas&amp;oning back between tool rounds</source>
        <translation>在工具调用轮次之间回传模型的推理过程(&amp;o)</translation>
    </message>
    <message>
        <location filename="../src/app/settingsdialog.cpp" line="141"/>
        <source>Send reasoning back between tool rounds</source>
        <translation>在工具调用轮次之间回传推理过程</translation>
    </message>
    <message>
        <location filename="../src/app/settingsdialog.cpp" line="142"/>
        <source>Some models (gpt-oss on llama.cpp or vLLM) need their earlier reasoning of the same answer; some providers (DeepSeek) refuse it.</source>
        <translation>有些模型（在 llama.cpp 或 vLLM 上运行的 gpt-oss）需要同一回答中先前的推理过程；有些服务商（DeepSeek）则会拒绝它。</translation>
    </message>
    <message>
        <location filename="../src/app/settingsdialog.cpp" line="144"/>
        <source>T&amp;est connection</source>
        <translation>测试连接(&amp;e)</translation>
    </message>
    <message>
        <location filename="../src/app/settingsdialog.cpp" line="145"/>
        <source>Test connection</source>
        <translation>测试连接</translation>
    </message>
    <message>
        <location filename="../src/app/settingsdialog.cpp" line="155"/>
        <source>Pro&amp;vider:</source>
        <translation>服务商(&amp;v)：</translation>
    </message>
    <message>
        <location filename="../src/app/settingsdialog.cpp" line="156"/>
        <source>&amp;Base URL:</source>
        <translation>基础 URL(&amp;B)：</translation>
    </message>
    <message>
        <location filename="../src/app/settingsdialog.cpp" line="158"/>
        <source>API &amp;key:</source>
        <translation>API 密钥(&amp;k)：</translation>
    </message>
    <message>
        <location filename="../src/app/settingsdialog.cpp" line="160"/>
        <source>Default &amp;model:</source>
        <translation>默认模型(&amp;m)：</translation>
    </message>
    <message>
        <location filename="../src/app/settingsdialog.cpp" line="161"/>
        <source>Extra &amp;headers:</source>
        <translation>额外请求头(&amp;h)：</translation>
    </message>
    <message>
        <location filename="../src/app/settingsdialog.cpp" line="162"/>
        <source>Context &amp;window:</source>
        <translation>上下文窗口(&amp;w)：</translation>
    </message>
    <message>
        <location filename="../src/app/settingsdialog.cpp" line="181"/>
        <source>Sandbox image</source>
        <translation>沙箱镜像</translation>
    </message>
    <message>
        <location filename="../src/app/settingsdialog.cpp" line="182"/>
        <source>&amp;Build image</source>
        <translation>构建镜像(&amp;B)</translation>
    </message>
    <message>
        <location filename="../src/app/settingsdialog.cpp" line="183"/>
        <source>Build the sandbox image</source>
        <translation>构建沙箱镜像</translation>
    </message>
    <message>
        <location filename="../src/app/settingsdialog.cpp" line="185"/>
        <source>Image build progress</source>
        <translation>镜像构建进度</translation>
    </message>
    <message>
        <location filename="../src/app/settingsdialog.cpp" line="190"/>
        <source>Show build &amp;log</source>
        <translation>显示构建日志(&amp;l)</translation>
    </message>
    <message>
        <location filename="../src/app/settingsdialog.cpp" line="191"/>
        <source>Show build log</source>
        <translation>显示构建日志</translation>
    </message>
    <message>
        <location filename="../src/app/settingsdialog.cpp" line="198"/>
        <source>Image build log</source>
        <translation>镜像构建日志</translation>
    </message>
    <message>
        <location filename="../src/app/settingsdialog.cpp" line="202"/>
        <source>Memory limit</source>
        <translation>内存上限</translation>
    </message>
    <message>
        <location filename="../src/app/settingsdialog.cpp" line="203"/>
        <source>As Docker writes it, such as 512m or 2g.</source>
        <translation>按 Docker 的写法，例如 512m 或 2g。</translation>
    </message>
    <message>
        <location filename="../src/app/settingsdialog.cpp" line="210"/>
        <source>CPUs</source>
        <translation>CPU 数</translation>
    </message>
    <message>
        <location filename="../src/app/settingsdialog.cpp" line="213"/>
        <source> s</source>
        <translation> 秒</translation>
    </message>
    <message>
        <location filename="../src/app/settingsdialog.cpp" line="214"/>
        <source>Execution timeout in seconds</source>
        <translation>执行超时（秒）</translation>
    </message>
    <message>
        <location filename="../src/app/settingsdialog.cpp" line="215"/>
        <source>Allow &amp;network access in new conversations</source>
        <translation>在新对话中允许网络访问(&amp;n)</translation>
    </message>
    <message>
        <location filename="../src/app/settingsdialog.cpp" line="216"/>
        <source>Network access by default</source>
        <translation>默认允许网络访问</translation>
    </message>
    <message>
        <location filename="../src/app/settingsdialog.cpp" line="219"/>
        <source> min</source>
        <translation> 分钟</translation>
    </message>
    <message>
        <location filename="../src/app/settingsdialog.cpp" line="220"/>
        <source>Stop idle sandboxes after minutes</source>
        <translation>空闲多少分钟后停止沙箱</translation>
    </message>
    <message>
        <location filename="../src/app/settingsdialog.cpp" line="221"/>
        <source>&amp;Remove all sandbox containers</source>
        <translation>删除所有沙箱容器(&amp;R)</translation>
    </message>
    <message>
        <location filename="../src/app/settingsdialog.cpp" line="222"/>
        <source>Remove all sandbox containers</source>
        <translation>删除所有沙箱容器</translation>
    </message>
    <message>
        <location filename="../src/app/settingsdialog.cpp" line="234"/>
        <source>&amp;Image:</source>
        <translation>镜像(&amp;I)：</translation>
    </message>
    <message>
        <location filename="../src/app/settingsdialog.cpp" line="239"/>
        <source>&amp;Memory:</source>
        <translation>内存(&amp;M)：</translation>
    </message>
    <message>
        <location filename="../src/app/settingsdialog.cpp" line="240"/>
        <source>&amp;CPUs:</source>
        <translation>CPU 数(&amp;C)：</translation>
    </message>
    <message>
        <location filename="../src/app/settingsdialog.cpp" line="241"/>
        <source>&amp;Timeout per run:</source>
        <translation>每次运行的超时(&amp;T)：</translation>
    </message>
    <message>
        <location filename="../src/app/settingsdialog.cpp" line="243"/>
        <source>Stop when idle &amp;after:</source>
        <translation>空闲多久后停止(&amp;a)：</translation>
    </message>
    <message>
        <location filename="../src/app/settingsdialog.cpp" line="273"/>
        <source>Run &amp;Python:</source>
        <translation>运行 Python(&amp;P)：</translation>
    </message>
    <message>
        <location filename="../src/app/settingsdialog.cpp" line="274"/>
        <source>Search the &amp;web:</source>
        <translation>搜索网络(&amp;w)：</translation>
    </message>
    <message>
        <location filename="../src/app/settingsdialog.cpp" line="275"/>
        <source>&amp;Fetch pages:</source>
        <translation>获取网页(&amp;F)：</translation>
    </message>
    <message>
        <location filename="../src/app/settingsdialog.cpp" line="276"/>
        <source>Draw &amp;charts:</source>
        <translation>绘制图表(&amp;c)：</translation>
    </message>
    <message>
        <location filename="../src/app/settingsdialog.cpp" line="280"/>
        <source>Ask every time</source>
        <translation>每次都询问</translation>
    </message>
    <message>
        <location filename="../src/app/settingsdialog.cpp" line="281"/>
        <source>Run without asking</source>
        <translation>直接运行，不询问</translation>
    </message>
    <message>
        <location filename="../src/app/settingsdialog.cpp" line="282"/>
        <source>Never</source>
        <translation>从不</translation>
    </message>
    <message>
        <location filename="../src/app/settingsdialog.cpp" line="283"/>
        <source>Approval for %1</source>
        <translation>%1 的批准方式</translation>
    </message>
    <message>
        <location filename="../src/app/settingsdialog.cpp" line="289"/>
        <source>Maximum tool rounds per answer</source>
        <translation>每次回答的最大工具调用轮数</translation>
    </message>
    <message>
        <location filename="../src/app/settingsdialog.cpp" line="290"/>
        <source>Maximum tool &amp;rounds:</source>
        <translation>最大工具调用轮数(&amp;r)：</translation>
    </message>
    <message>
        <location filename="../src/app/settingsdialog.cpp" line="296"/>
        <source>Web search backend</source>
        <translation>网络搜索后端</translation>
    </message>
    <message>
        <location filename="../src/app/settingsdialog.cpp" line="297"/>
        <source>Search &amp;backend:</source>
        <translation>搜索后端(&amp;b)：</translation>
    </message>
    <message>
        <location filename="../src/app/settingsdialog.cpp" line="299"/>
        <source>SearXNG URL</source>
        <translation>SearXNG URL</translation>
    </message>
    <message>
        <location filename="../src/app/settingsdialog.cpp" line="300"/>
        <source>Sear&amp;XNG URL:</source>
        <translation>SearXNG URL(&amp;X)：</translation>
    </message>
    <message>
        <location filename="../src/app/settingsdialog.cpp" line="310"/>
        <location filename="../src/app/settingsdialog.cpp" line="320"/>
        <source>Follow the system</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <location filename="../src/app/settingsdialog.cpp" line="311"/>
        <source>Light</source>
        <translation>浅色</translation>
    </message>
    <message>
        <location filename="../src/app/settingsdialog.cpp" line="312"/>
        <source>Dark</source>
        <translation>深色</translation>
    </message>
    <message>
        <location filename="../src/app/settingsdialog.cpp" line="313"/>
        <source>Theme</source>
        <translation>主题</translation>
    </message>
    <message>
        <location filename="../src/app/settingsdialog.cpp" line="316"/>
        <source>System size</source>
        <translation>系统字号</translation>
    </message>
    <message>
        <location filename="../src/app/settingsdialog.cpp" line="317"/>
        <source> pt</source>
        <translation> pt</translation>
    </message>
    <message>
        <location filename="../src/app/settingsdialog.cpp" line="318"/>
        <source>Chat font size</source>
        <translation>对话字号</translation>
    </message>
    <message>
        <location filename="../src/app/settingsdialog.cpp" line="324"/>
        <source>Language</source>
        <translation>语言</translation>
    </message>
    <message>
        <location filename="../src/app/settingsdialog.cpp" line="331"/>
        <source>&amp;Theme:</source>
        <translation>主题(&amp;T)：</translation>
    </message>
    <message>
        <location filename="../src/app/settingsdialog.cpp" line="332"/>
        <source>Chat &amp;font size:</source>
        <translation>对话字号(&amp;f)：</translation>
    </message>
    <message>
        <location filename="../src/app/settingsdialog.cpp" line="333"/>
        <source>&amp;Language:</source>
        <translation>语言(&amp;L)：</translation>
    </message>
    <message>
        <location filename="../src/app/settingsdialog.cpp" line="334"/>
        <source>A new language shows after a restart.</source>
        <translation>新语言将在重新启动后生效。</translation>
    </message>
    <message>
        <location filename="../src/app/settingsdialog.cpp" line="343"/>
        <source>System prompt</source>
        <translation>系统提示词</translation>
    </message>
    <message>
        <location filename="../src/app/settingsdialog.cpp" line="344"/>
        <source>Empty: the default system prompt</source>
        <translation>留空：使用默认系统提示词</translation>
    </message>
    <message>
        <location filename="../src/app/settingsdialog.cpp" line="346"/>
        <source>Reset to &amp;default</source>
        <translation>恢复默认(&amp;d)</translation>
    </message>
    <message>
        <location filename="../src/app/settingsdialog.cpp" line="347"/>
        <source>Reset the system prompt to the default</source>
        <translation>将系统提示词恢复为默认值</translation>
    </message>
    <message>
        <location filename="../src/app/settingsdialog.cpp" line="371"/>
        <source>https://example.com/v1</source>
        <translation>https://example.com/v1</translation>
    </message>
    <message>
        <location filename="../src/app/settingsdialog.cpp" line="515"/>
        <source>The keychain is not available (%1): the key is used until you quit Sandpiper and will not be remembered. Press OK to continue.</source>
        <translation>钥匙串不可用（%1）：该密钥只在 Sandpiper 本次运行期间使用，退出后不会保存。按“确定”继续。</translation>
    </message>
    <message>
        <location filename="../src/app/settingsdialog.cpp" line="546"/>
        <source>Testing…</source>
        <translation>正在测试…</translation>
    </message>
    <message>
        <location filename="../src/app/settingsdialog.cpp" line="581"/>
        <source>No sandbox folder with a Dockerfile was found next to Sandpiper (../share/sandpiper/sandbox). Reinstall Sandpiper or build the image by hand.</source>
        <translation>在 Sandpiper 旁边没有找到包含 Dockerfile 的沙箱文件夹（../share/sandpiper/sandbox）。请重新安装 Sandpiper，或手动构建镜像。</translation>
    </message>
    <message>
        <location filename="../src/app/settingsdialog.cpp" line="592"/>
        <source>Building %1 from %2…</source>
        <translation>正在从 %2 构建 %1…</translation>
    </message>
    <message>
        <location filename="../src/app/settingsdialog.cpp" line="598"/>
        <source>The image %1 is ready.</source>
        <translation>镜像 %1 已就绪。</translation>
    </message>
    <message>
        <location filename="../src/app/settingsdialog.cpp" line="599"/>
        <source>The build failed: %1</source>
        <translation>构建失败：%1</translation>
    </message>
    <message>
        <location filename="../src/app/settingsdialog.cpp" line="609"/>
        <source>Removing…</source>
        <translation>正在删除…</translation>
    </message>
    <message>
        <location filename="../src/app/settingsdialog.cpp" line="614"/>
        <source>Sandbox containers removed: %1.</source>
        <translation>已删除的沙箱容器：%1。</translation>
    </message>
</context>
<context>
    <name>Sandpiper::ToolCallCard</name>
    <message>
        <location filename="../src/app/chat/toolcallcard.cpp" line="38"/>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <location filename="../src/app/chat/toolcallcard.cpp" line="39"/>
        <source>Edit</source>
        <translation>编辑</translation>
    </message>
    <message>
        <location filename="../src/app/chat/toolcallcard.cpp" line="44"/>
        <source>Tool call %1</source>
        <translation>工具调用 %1</translation>
    </message>
    <message>
        <location filename="../src/app/chat/toolcallcard.cpp" line="50"/>
        <source>Show the code and its output</source>
        <translation>显示代码及其输出</translation>
    </message>
    <message>
        <location filename="../src/app/chat/toolcallcard.cpp" line="54"/>
        <source>Code</source>
        <translation>代码</translation>
    </message>
    <message>
        <location filename="../src/app/chat/toolcallcard.cpp" line="57"/>
        <source>Output</source>
        <translation>输出</translation>
    </message>
    <message>
        <location filename="../src/app/chat/toolcallcard.cpp" line="71"/>
        <source>Always allow in this chat</source>
        <translation>在此对话中始终允许</translation>
    </message>
    <message>
        <location filename="../src/app/chat/toolcallcard.cpp" line="72"/>
        <source>Deny</source>
        <translation>拒绝</translation>
    </message>
    <message>
        <location filename="../src/app/chat/toolcallcard.cpp" line="73"/>
        <source>Run the code</source>
        <translation>运行代码</translation>
    </message>
    <message>
        <location filename="../src/app/chat/toolcallcard.cpp" line="74"/>
        <source>Edit the code before running it</source>
        <translation>先编辑代码再运行</translation>
    </message>
    <message>
        <location filename="../src/app/chat/toolcallcard.cpp" line="75"/>
        <source>Always allow this tool in this conversation</source>
        <translation>在此对话中始终允许使用此工具</translation>
    </message>
    <message>
        <location filename="../src/app/chat/toolcallcard.cpp" line="76"/>
        <source>Deny running the code</source>
        <translation>拒绝运行代码</translation>
    </message>
    <message>
        <location filename="../src/app/chat/toolcallcard.cpp" line="77"/>
        <source>Reason (optional, sent to the model)</source>
        <translation>原因（可选，将发送给模型）</translation>
    </message>
    <message>
        <location filename="../src/app/chat/toolcallcard.cpp" line="78"/>
        <source>Reason for denying</source>
        <translation>拒绝原因</translation>
    </message>
    <message>
        <location filename="../src/app/chat/toolcallcard.cpp" line="101"/>
        <source>Run edited code</source>
        <translation>运行编辑后的代码</translation>
    </message>
    <message>
        <location filename="../src/app/chat/toolcallcard.cpp" line="120"/>
        <source>%1 · proposed</source>
        <translation>%1 · 已提议</translation>
    </message>
    <message>
        <location filename="../src/app/chat/toolcallcard.cpp" line="127"/>
        <source>Python</source>
        <translation>Python</translation>
    </message>
    <message>
        <location filename="../src/app/chat/toolcallcard.cpp" line="129"/>
        <source>web search</source>
        <translation>网页搜索</translation>
    </message>
    <message>
        <location filename="../src/app/chat/toolcallcard.cpp" line="131"/>
        <source>page reader</source>
        <translation>网页读取</translation>
    </message>
    <message>
        <location filename="../src/app/chat/toolcallcard.cpp" line="133"/>
        <source>chart</source>
        <translation>图表</translation>
    </message>
    <message>
        <location filename="../src/app/chat/toolcallcard.cpp" line="151"/>
        <source>Source %1: %2</source>
        <translation>来源 %1：%2</translation>
    </message>
    <message>
        <location filename="../src/app/chat/toolcallcard.cpp" line="188"/>
        <location filename="../src/app/chat/toolcallcard.cpp" line="210"/>
        <source>Running %1…</source>
        <translation>正在运行 %1…</translation>
    </message>
    <message>
        <location filename="../src/app/chat/toolcallcard.cpp" line="195"/>
        <source>%1 · waiting for approval</source>
        <translation>%1 · 等待批准</translation>
    </message>
    <message>
        <location filename="../src/app/chat/toolcallcard.cpp" line="229"/>
        <location filename="../src/app/chat/toolcallcard.cpp" line="289"/>
        <source>%1 · interrupted</source>
        <translation>%1 · 已中断</translation>
    </message>
    <message>
        <location filename="../src/app/chat/toolcallcard.cpp" line="231"/>
        <source>%1 · not run</source>
        <translation>%1 · 未运行</translation>
    </message>
    <message>
        <location filename="../src/app/chat/toolcallcard.cpp" line="231"/>
        <source>Used %1</source>
        <translation>已使用 %1</translation>
    </message>
    <message>
        <location filename="../src/app/chat/toolcallcard.cpp" line="240"/>
        <source>timed out</source>
        <translation>已超时</translation>
    </message>
    <message>
        <location filename="../src/app/chat/toolcallcard.cpp" line="241"/>
        <source>Ran %1 · %2 s · %3</source>
        <translation>已运行 %1 · %2 秒 · %3</translation>
    </message>
    <message>
        <location filename="../src/app/chat/toolcallcard.cpp" line="265"/>
        <source>Open</source>
        <translation>打开</translation>
    </message>
    <message>
        <location filename="../src/app/chat/toolcallcard.cpp" line="266"/>
        <source>Save…</source>
        <translation>保存…</translation>
    </message>
    <message>
        <location filename="../src/app/chat/toolcallcard.cpp" line="267"/>
        <source>Open %1</source>
        <translation>打开 %1</translation>
    </message>
    <message>
        <location filename="../src/app/chat/toolcallcard.cpp" line="268"/>
        <source>Save %1</source>
        <translation>保存 %1</translation>
    </message>
    <message>
        <location filename="../src/app/chat/toolcallcard.cpp" line="271"/>
        <location filename="../src/app/chat/toolcallcard.cpp" line="276"/>
        <source>Save file</source>
        <translation>保存文件</translation>
    </message>
    <message>
        <location filename="../src/app/chat/toolcallcard.cpp" line="276"/>
        <source>The file could not be saved to %1.</source>
        <translation>无法将文件保存到 %1。</translation>
    </message>
</context>
<context>
    <name>Sandpiper::WebFetcher</name>
    <message>
        <location filename="../src/core/tools/webfetcher.cpp" line="135"/>
        <source>%1 redirected to %2. </source>
        <translation>%1 已重定向到 %2。</translation>
    </message>
    <message>
        <location filename="../src/core/tools/webfetcher.cpp" line="140"/>
        <source>Only http and https addresses can be fetched, not %1.</source>
        <translation>只能获取 http 和 https 地址，不支持 %1。</translation>
    </message>
    <message>
        <location filename="../src/core/tools/webfetcher.cpp" line="143"/>
        <source>&quot;%1&quot; is not a valid web address.</source>
        <translation>“%1”不是有效的网址。</translation>
    </message>
    <message>
        <location filename="../src/core/tools/webfetcher.cpp" line="158"/>
        <location filename="../src/core/tools/webfetcher.cpp" line="340"/>
        <source>Cancelled.</source>
        <translation>已取消。</translation>
    </message>
    <message>
        <location filename="../src/core/tools/webfetcher.cpp" line="161"/>
        <source>Looking up the address of %1 took longer than %2 s.</source>
        <translation>解析 %1 的地址耗时超过 %2 秒。</translation>
    </message>
    <message>
        <location filename="../src/core/tools/webfetcher.cpp" line="166"/>
        <source>The host %1 was not found (%2).</source>
        <translation>找不到主机 %1（%2）。</translation>
    </message>
    <message>
        <location filename="../src/core/tools/webfetcher.cpp" line="176"/>
        <source>%1 is %2.</source>
        <translation>%1 是 %2。</translation>
    </message>
    <message>
        <location filename="../src/core/tools/webfetcher.cpp" line="177"/>
        <source>%1 resolves to %2, %3.</source>
        <translation>%1 解析为 %2，%3。</translation>
    </message>
    <message>
        <location filename="../src/core/tools/webfetcher.cpp" line="181"/>
        <source>Such addresses are never fetched.</source>
        <translation>此类地址一律不予获取。</translation>
    </message>
    <message>
        <location filename="../src/core/tools/webfetcher.cpp" line="182"/>
        <source>Only public internet addresses are fetched.</source>
        <translation>仅获取公共互联网地址。</translation>
    </message>
    <message>
        <location filename="../src/core/tools/webfetcher.cpp" line="220"/>
        <source>More than %1 redirects: %2. The page may redirect in a loop.</source>
        <translation>重定向超过 %1 次：%2。该页面可能存在循环重定向。</translation>
    </message>
    <message>
        <location filename="../src/core/tools/webfetcher.cpp" line="343"/>
        <source>%1 did not answer within %2 s.</source>
        <translation>%1 未在 %2 秒内响应。</translation>
    </message>
    <message>
        <location filename="../src/core/tools/webfetcher.cpp" line="346"/>
        <source>The page did not finish loading within %1 s.</source>
        <translation>页面未能在 %1 秒内加载完成。</translation>
    </message>
    <message>
        <location filename="../src/core/tools/webfetcher.cpp" line="357"/>
        <source>%1 refused the connection.</source>
        <translation>%1 拒绝了连接。</translation>
    </message>
    <message>
        <location filename="../src/core/tools/webfetcher.cpp" line="359"/>
        <source>The host %1 was not found.</source>
        <translation>找不到主机 %1。</translation>
    </message>
    <message>
        <location filename="../src/core/tools/webfetcher.cpp" line="362"/>
        <source>The secure connection to %1 failed: %2</source>
        <translation>与 %1 的安全连接失败：%2</translation>
    </message>
    <message>
        <location filename="../src/core/tools/webfetcher.cpp" line="365"/>
        <source>Network error with %1: %2</source>
        <translation>与 %1 通信时出现网络错误：%2</translation>
    </message>
</context>
<context>
    <name>Sandpiper::WelcomePage</name>
    <message>
        <location filename="../src/app/welcomepage.cpp" line="25"/>
        <source>&amp;Look again</source>
        <translation>重新查找(&amp;L)</translation>
    </message>
    <message>
        <location filename="../src/app/welcomepage.cpp" line="27"/>
        <source>&amp;Use OpenAI</source>
        <translation>使用 OpenAI(&amp;U)</translation>
    </message>
    <message>
        <location filename="../src/app/welcomepage.cpp" line="28"/>
        <source>Open &amp;settings…</source>
        <translation>打开设置(&amp;s)…</translation>
    </message>
    <message>
        <location filename="../src/app/welcomepage.cpp" line="30"/>
        <source>Welcome</source>
        <translation>欢迎</translation>
    </message>
    <message>
        <location filename="../src/app/welcomepage.cpp" line="31"/>
        <source>Welcome to Sandpiper</source>
        <translation>欢迎使用 Sandpiper</translation>
    </message>
    <message>
        <location filename="../src/app/welcomepage.cpp" line="39"/>
        <source>Look for local servers again</source>
        <translation>重新查找本地服务器</translation>
    </message>
    <message>
        <location filename="../src/app/welcomepage.cpp" line="41"/>
        <source>sk-…</source>
        <translation>sk-…</translation>
    </message>
    <message>
        <location filename="../src/app/welcomepage.cpp" line="42"/>
        <source>OpenAI API key</source>
        <translation>OpenAI API 密钥</translation>
    </message>
    <message>
        <location filename="../src/app/welcomepage.cpp" line="43"/>
        <source>Use OpenAI with this key</source>
        <translation>使用此密钥连接 OpenAI</translation>
    </message>
    <message>
        <location filename="../src/app/welcomepage.cpp" line="45"/>
        <source>Open settings</source>
        <translation>打开设置</translation>
    </message>
    <message>
        <location filename="../src/app/welcomepage.cpp" line="47"/>
        <source>A model on this computer</source>
        <translation>本机上的模型</translation>
    </message>
    <message>
        <location filename="../src/app/welcomepage.cpp" line="56"/>
        <source>Or OpenAI</source>
        <translation>或使用 OpenAI</translation>
    </message>
    <message>
        <location filename="../src/app/welcomepage.cpp" line="58"/>
        <source>Paste an API key from platform.openai.com. It is kept in the system keychain.</source>
        <translation>粘贴来自 platform.openai.com 的 API 密钥。密钥将保存在系统钥匙串中。</translation>
    </message>
    <message>
        <location filename="../src/app/welcomepage.cpp" line="67"/>
        <source>Another provider or your own server?</source>
        <translation>使用其他服务商或自己的服务器？</translation>
    </message>
    <message>
        <location filename="../src/app/welcomepage.cpp" line="105"/>
        <source>Choose where the answers should come from; you can change it later in Settings (Ctrl+,).</source>
        <translation>请选择回答的来源；之后可以在设置中更改（Ctrl+,）。</translation>
    </message>
    <message>
        <location filename="../src/app/welcomepage.cpp" line="120"/>
        <source>Looking for Ollama, LM Studio, llama.cpp and vLLM on this computer…</source>
        <translation>正在本机上查找 Ollama、LM Studio、llama.cpp 和 vLLM…</translation>
    </message>
    <message>
        <location filename="../src/app/welcomepage.cpp" line="132"/>
        <source>No local server answered. Start Ollama, LM Studio, llama.cpp or vLLM and look again, or use a key below.</source>
        <translation>没有本地服务器响应。请启动 Ollama、LM Studio、llama.cpp 或 vLLM 后重新查找，或在下方使用密钥。</translation>
    </message>
    <message>
        <location filename="../src/app/welcomepage.cpp" line="134"/>
        <source>Found on this computer:</source>
        <translation>在本机上找到：</translation>
    </message>
    <message>
        <location filename="../src/app/welcomepage.cpp" line="138"/>
        <location filename="../src/app/welcomepage.cpp" line="139"/>
        <source>Use %1</source>
        <translation>使用 %1</translation>
    </message>
    <message>
        <location filename="../src/app/welcomepage.cpp" line="142"/>
        <source>%1 · models: %2</source>
        <translation>%1 · 模型：%2</translation>
    </message>
</context>
<context>
    <name>TextCallParser</name>
    <message>
        <location filename="../src/core/llm/textcallparser.cpp" line="127"/>
        <source>The model wrote a call to &quot;%1&quot; into its answer, but it has no tool of that name, so the call is shown as text.</source>
        <translation>模型在回答中写入了对“%1”的调用，但没有该名称的工具，因此该调用以文本形式显示。</translation>
    </message>
    <message>
        <location filename="../src/core/llm/textcallparser.cpp" line="144"/>
        <source>The model wrote a tool call into its answer without a tool name, so it is shown as text.</source>
        <translation>模型在回答中写入的工具调用没有工具名称，因此以文本形式显示。</translation>
    </message>
    <message>
        <location filename="../src/core/llm/textcallparser.cpp" line="179"/>
        <source>The model wrote a tool call into its answer that is not a JSON object, so it is shown as text.</source>
        <translation>模型在回答中写入的工具调用不是 JSON 对象，因此以文本形式显示。</translation>
    </message>
    <message>
        <location filename="../src/core/llm/textcallparser.cpp" line="189"/>
        <location filename="../src/core/llm/textcallparser.cpp" line="301"/>
        <location filename="../src/core/llm/textcallparser.cpp" line="327"/>
        <source>The model wrote an empty list of tool calls into its answer.</source>
        <translation>模型在回答中写入了一个空的工具调用列表。</translation>
    </message>
    <message>
        <location filename="../src/core/llm/textcallparser.cpp" line="199"/>
        <location filename="../src/core/llm/textcallparser.cpp" line="290"/>
        <location filename="../src/core/llm/textcallparser.cpp" line="313"/>
        <source>The model wrote a tool call into its answer that is not valid JSON, so it was not run; it is shown as text.</source>
        <translation>模型在回答中写入的工具调用不是有效的 JSON，因此没有运行，而是以文本形式显示。</translation>
    </message>
    <message>
        <location filename="../src/core/llm/textcallparser.cpp" line="251"/>
        <source>The model wrote a tool call into its answer in XML that could not be read, so it is shown as text.</source>
        <translation>模型在回答中以 XML 写入的工具调用无法读取，因此以文本形式显示。</translation>
    </message>
    <message>
        <location filename="../src/core/llm/textcallparser.cpp" line="276"/>
        <source>The model wrote a tool call into its answer that could not be read, so it is shown as text.</source>
        <translation>模型在回答中写入的工具调用无法读取，因此以文本形式显示。</translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <location filename="../src/app/main.cpp" line="53"/>
        <source>Chat with language models that run code.</source>
        <translation>与能够运行代码的语言模型聊天。</translation>
    </message>
    <message>
        <location filename="../src/app/main.cpp" line="57"/>
        <source>Override a setting for this run.</source>
        <translation>仅在本次运行中覆盖某项设置。</translation>
    </message>
    <message>
        <location filename="../src/app/main.cpp" line="60"/>
        <source>Keep settings and data in DIR.</source>
        <translation>将设置和数据保存在 DIR 中。</translation>
    </message>
    <message>
        <location filename="../src/app/main.cpp" line="96"/>
        <location filename="../src/app/main.cpp" line="98"/>
        <source>Conversations</source>
        <translation>对话</translation>
    </message>
</context>
</TS>
