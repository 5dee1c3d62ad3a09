"""Chat template and the one tokenisation used by training (llm_lora imports it) and scoring alike.

An example becomes prompt tokens (everything before the assistant's final answer, rendered
with add_generation_prompt=True, so it ends where generation would start) followed by the
answer's tokens. The two parts are tokenised separately, so no token straddles the boundary
and the prompt tokens are exactly those the model sees when it is asked to generate.
completion_mask is 0 on the prompt and 1 on the answer: TRL turns the 0s into label -100.
"""

from __future__ import annotations

from dataclasses import dataclass

from trainyard_recipe import BadInput

# For models without a chat template (GPT-2, many base models). Plain-text headers that any
# byte-level tokenizer can encode; the answer ends with the end-of-sequence token so the
# model learns to stop. Documented in docs/fine-tuning.md.
DEFAULT_CHAT_TEMPLATE = (
    "{%- for message in messages -%}"
    "{%- if message['role'] == 'system' -%}{{ message['content'] + '\\n\\n' }}"
    "{%- elif message['role'] == 'user' -%}{{ '### User:\\n' + message['content'] + '\\n\\n' }}"
    "{%- elif message['role'] == 'assistant' -%}{{ '### Assistant:\\n' + message['content'] + eos_token + '\\n\\n' }}"
    "{%- else -%}{{ raise_exception('unknown role ' + message['role']) }}"
    "{%- endif -%}"
    "{%- endfor -%}"
    "{%- if add_generation_prompt -%}{{ '### Assistant:\\n' }}{%- endif -%}"
)


@dataclass(frozen=True)
class Tokenised:
    input_ids: list[int]
    completion_mask: list[int]

    @property
    def prompt_length(self) -> int:
        return self.completion_mask.index(1) if 1 in self.completion_mask else len(self.completion_mask)


def load_tokenizer(model_dir):
    """The model folder's tokenizer with its chat template (or the default) and a pad token."""
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(str(model_dir), local_files_only=True)
    if not tokenizer.chat_template:
        tokenizer.chat_template = DEFAULT_CHAT_TEMPLATE
    if tokenizer.pad_token is None:
        tokenizer.pad_token = tokenizer.eos_token
    return tokenizer


def template_source(model_dir) -> str:
    """'model' when the folder brings its own chat template, else 'default'."""
    from transformers import AutoTokenizer

    return "model" if AutoTokenizer.from_pretrained(str(model_dir), local_files_only=True).chat_template else "default"


def render_prompt(tokenizer, messages: list[dict]) -> str:
    """Everything before a conversation's final answer, ending where generation starts."""
    return tokenizer.apply_chat_template(messages[:-1], tokenize=False, add_generation_prompt=True)


def render_question(tokenizer, text: str) -> str:
    """One user message as training renders a prompt (a new question has no answer yet)."""
    return render_prompt(tokenizer, [{"role": "user", "content": text}, {"role": "assistant", "content": ""}])


def tokenise(tokenizer, messages: list[dict]) -> Tokenised:
    """Prompt + answer tokens of one conversation; BadInput(template_cannot_render) when the
    template fails on it or does not render the prompt as the start of the conversation."""
    try:
        prompt_text = render_prompt(tokenizer, messages)
        full_text = tokenizer.apply_chat_template(messages, tokenize=False)
    except Exception as exc:  # noqa: BLE001 - jinja errors, raise_exception(), role checks of the template
        raise BadInput(f"the chat template cannot render this conversation: {exc}. Use roles user/assistant "
                       "(and system) the template accepts, or a model whose template fits the data.",
                       code="template_cannot_render") from None
    if not full_text.startswith(prompt_text) or len(full_text) == len(prompt_text):
        raise BadInput("the chat template does not render the prompt as the beginning of the conversation, so the "
                       "answer's tokens cannot be told apart from the prompt's.", code="template_cannot_render")
    prompt_ids = tokenizer(prompt_text, add_special_tokens=False)["input_ids"]
    answer_ids = tokenizer(full_text[len(prompt_text):], add_special_tokens=False)["input_ids"]
    return Tokenised(input_ids=prompt_ids + answer_ids, completion_mask=[0] * len(prompt_ids) + [1] * len(answer_ids))


def truncate(item: Tokenised, max_length: int) -> Tokenised | None:
    """Keep the start (like TRL's keep_start): None when no answer token is left."""
    if item.prompt_length >= max_length:
        return None
    return Tokenised(item.input_ids[:max_length], item.completion_mask[:max_length])
