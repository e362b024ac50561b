import opennmt
import tensorflow_addons as tfa


def model():
    return opennmt.models.SequenceToSequence(
        source_inputter=opennmt.inputters.WordEmbedder(embedding_size=32),
        target_inputter=opennmt.inputters.WordEmbedder(embedding_size=32),
        encoder=opennmt.encoders.RNNEncoder(num_layers=1, num_units=64),
        decoder=opennmt.decoders.AttentionalRNNDecoder(
            num_layers=1, num_units=64, attention_mechanism_class=tfa.seq2seq.LuongAttention),
    )
